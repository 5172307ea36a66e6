#if canImport(Glibc)
import Glibc
#endif

/// The process's own figures under Prometheus' standard `process_*` names, read from `/proc`
/// at each scrape: CPU time, resident and virtual memory, open and allowed file descriptors,
/// start time. Nil fields (no `/proc`, an unreadable file) are left out of the exposition.
struct ProcessMetrics: Equatable {
    var cpuSeconds: Double?
    var residentBytes: Double?
    var virtualBytes: Double?
    var openDescriptors: Double?
    var maximumDescriptors: Double?
    var startTimeSeconds: Double?

    /// The figures of this process now.
    static func current() -> ProcessMetrics {
        var metrics = ProcessMetrics()
        #if canImport(Glibc)
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
        if let stat = read("/proc/self/stat"), let fields = statFields(stat), ticks > 0 {
            metrics.cpuSeconds = (fields.userTicks + fields.systemTicks) / ticks
            metrics.virtualBytes = fields.virtualBytes
            metrics.residentBytes = fields.residentPages * pageSize
            if let boot = read("/proc/stat").flatMap(bootTime) {
                metrics.startTimeSeconds = boot + fields.startTicks / ticks
            }
        }
        metrics.openDescriptors = openDescriptorCount()
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max {
            metrics.maximumDescriptors = Double(limit.rlim_cur)
        }
        #endif
        return metrics
    }

    /// The Prometheus text of the figures known, each with `# HELP` and `# TYPE`.
    var exposition: String {
        var text = ""
        func add(_ name: String, _ type: String, _ help: String, _ value: Double?) {
            guard let value else { return }
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(Self.format(value))\n"
        }
        add("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", cpuSeconds)
        add("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", residentBytes)
        add("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", virtualBytes)
        add("process_open_fds", "gauge", "Number of open file descriptors.", openDescriptors)
        add("process_max_fds", "gauge", "Maximum number of open file descriptors.", maximumDescriptors)
        add("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.", startTimeSeconds)
        return text
    }

    /// The fields of `/proc/self/stat` used here. The command name (field 2) is in
    /// parentheses and may hold spaces and parentheses itself: fields are counted after the
    /// last `)`.
    static func statFields(_ text: String) -> (userTicks: Double, systemTicks: Double, startTicks: Double, virtualBytes: Double,
                                              residentPages: Double)? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        // After the name: field 3 (state) is at index 0.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 21, let user = Double(fields[11]), let system = Double(fields[12]), let start = Double(fields[19]),
              let virtual = Double(fields[20]), let resident = Double(fields[21]) else { return nil }
        return (user, system, start, virtual, resident)
    }

    /// The boot time (`btime`, Unix seconds) of `/proc/stat`.
    static func bootTime(_ text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst("btime ".count))
        }
        return nil
    }

    /// Integers as integers (`promtool` and people read them better), others as they are.
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    #if canImport(Glibc)
    /// A small text file of `/proc` in full; nil when it cannot be read.
    private static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The entries of `/proc/self/fd`, less the one the listing itself holds open.
    private static func openDescriptorCount() -> Double? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { name in name.first == UInt8(ascii: ".") }
            if !isDot { count += 1 }
        }
        return Double(max(0, count - 1))
    }
    #endif
}
