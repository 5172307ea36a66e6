import Foundation

/// `pricewatch-bench startup PRICEWATCH DIR RULES...`: for each count of rules, the daemon
/// (`pricewatch run`, a separate process) from spawn to `READY=1` on a `NOTIFY_SOCKET` of the
/// benchmark's own, then SIGHUP to the next `READY=1` four times: a reload of the same
/// configuration, one after editing one rule file, one after editing every rule file (the
/// daemon reads again only the files that changed), each right after the one before (while the
/// daemon evaluates the poll a start or reload begins with), and one more after editing every
/// file once the daemon is idle; and its resident memory once ready. Each figure is the median
/// of three daemons, each started over a fresh state file.
///
/// Checks its result: the `STATUS=` sent with READY must name the configured number of rules
/// and symbols; otherwise it prints the mismatch and exits 1. The configuration has 10 rules per
/// symbol (the benchmark mix of every condition kind) on a replay provider.
enum StartupBenchmark {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func run(executable: String, directory: String, ruleCounts: [Int]) throws {
        print("rules    symbols      start (ms)  reload (ms)  reload, 1 file edited (ms)  reload, all edited (ms)  reload, all edited, idle (ms)     RSS (MB)  start ms per 1k rules")
        for count in ruleCounts {
            let symbols = max(count / 10, 1)
            let configDirectory = "\(directory)/startup-\(count)"
            try? FileManager.default.removeItem(atPath: configDirectory)
            try BenchmarkData.generate(directory: configDirectory, rows: symbols, symbols: symbols, rulesPerSymbol: 10)
            try BenchmarkData.moveRulesIntoDirectory(configDirectory)
            try Data(BenchmarkData.replayMainFile(interval: "60s").utf8).write(to: URL(fileURLWithPath: configDirectory + "/pricewatch.toml"))
            // The median of three daemons, column by column: one start on a shared machine is noise.
            var results: [Result] = []
            for _ in 0..<3 {
                results.append(try measure(executable: executable, directory: configDirectory, rules: symbols * 10, symbols: symbols))
                try? FileManager.default.removeItem(atPath: configDirectory + "/state")
            }
            let result = Result.median(of: results)
            print(String(format: "%-8d %-10d %12.0f %12.0f %27.0f %24.0f %30.0f %12.1f %22.2f", symbols * 10, symbols, result.start * 1000,
                         result.reload * 1000, result.reloadOneEdited * 1000, result.reloadAllEdited * 1000, result.reloadAllEditedIdle * 1000,
                         Double(result.residentKB) / 1024, result.start * 1000 / (Double(symbols * 10) / 1000)))
        }
    }

    struct Result {
        var start: Double
        var reload: Double
        var reloadOneEdited: Double
        var reloadAllEdited: Double
        var reloadAllEditedIdle: Double
        var residentKB: Int

        /// Each figure's median over `results` (three or more).
        static func median(of results: [Result]) -> Result {
            func middle<T: Comparable>(_ values: [T]) -> T { values.sorted()[values.count / 2] }
            return Result(start: middle(results.map(\.start)), reload: middle(results.map(\.reload)),
                          reloadOneEdited: middle(results.map(\.reloadOneEdited)), reloadAllEdited: middle(results.map(\.reloadAllEdited)),
                          reloadAllEditedIdle: middle(results.map(\.reloadAllEditedIdle)), residentKB: middle(results.map(\.residentKB)))
        }
    }

    static func measure(executable: String, directory: String, rules: Int, symbols: Int) throws -> Result {
        let socketPath = directory + "/notify.sock"
        let socket = try NotifyListener(path: socketPath)
        defer { socket.close() }
        let process = daemonProcess(executable: executable, configuration: directory + "/pricewatch.toml", notifySocket: socketPath,
                                    standardError: FileHandle(forWritingAtPath: "/dev/null"))
        let clock = ContinuousClock()
        let spawned = clock.now
        try process.run()
        defer {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
        let expected = "\(rules) rules on \(symbols) symbols"
        let ready = try socket.waitFor("READY=1", deadline: 120)
        let started = clock.now
        guard ready.contains(expected) else {
            throw Failure(description: "startup: expected READY with '\(expected)', got '\(ready)'")
        }
        let resident = residentKB(process.processIdentifier)
        // SIGHUP to READY; the status must still name every rule.
        func reload(_ what: String) throws -> Double {
            let hangup = clock.now
            kill(process.processIdentifier, SIGHUP)
            _ = try socket.waitFor("RELOADING=1", deadline: 120)
            let reloaded = try socket.waitFor("READY=1", deadline: 120)
            let done = clock.now
            guard reloaded.contains(expected), !reloaded.contains("rejected") else {
                throw Failure(description: "reload (\(what)): expected READY with '\(expected)', got '\(reloaded)'")
            }
            return seconds(done - hangup)
        }
        let unchanged = try reload("unchanged")
        let ruleFiles = try ruleFiles(in: directory)
        try appendComment(to: ruleFiles.prefix(1))
        let oneEdited = try reload("one file edited")
        try appendComment(to: ruleFiles)
        let allEdited = try reload("every file edited")
        // The same once the daemon is idle, as it is between polls: the reloads above share the
        // two cores with evaluating and committing the poll each start or reload begins with.
        try waitUntilIdle(process.processIdentifier)
        try appendComment(to: ruleFiles)
        let allEditedIdle = try reload("every file edited, idle")
        return Result(start: seconds(started - spawned), reload: unchanged, reloadOneEdited: oneEdited, reloadAllEdited: allEdited,
                      reloadAllEditedIdle: allEditedIdle, residentKB: resident)
    }

    /// `pricewatch run` of `configuration` at warning level, telling `notifySocket` (the
    /// benchmark's service-manager end) when it is ready, its output discarded.
    static func daemonProcess(executable: String, configuration: String, notifySocket: String, standardError: FileHandle?,
                              extraArguments: [String] = []) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["run", "--config", configuration, "--log-level", "warning"] + extraArguments
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notifySocket
        environment.removeValue(forKey: "WATCHDOG_USEC")
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = standardError
        return process
    }

    /// Waits until the process uses less than 2% of a CPU over 250 ms (30 s at most).
    static func waitUntilIdle(_ pid: Int32) throws {
        let deadline = ContinuousClock.now + .seconds(30)
        var last = cpuTicks(pid)
        while ContinuousClock.now < deadline {
            usleep(250_000)
            let now = cpuTicks(pid)
            // Clock ticks of 10 ms: at most one in 250 ms.
            if now - last <= 1 { return }
            last = now
        }
        throw Failure(description: "the daemon did not become idle within 30 s")
    }

    /// User plus system CPU time of a process, in clock ticks (0 when unreadable).
    static func cpuTicks(_ pid: Int32) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state is field 3; utime and stime are fields 14 and 15.
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
        return user + system
    }

    /// The rule files of the configuration in `directory`, sorted.
    static func ruleFiles(in directory: String) throws -> [String] {
        let rules = directory + "/rules.d"
        return try FileManager.default.contentsOfDirectory(atPath: rules).filter { $0.hasSuffix(".toml") }.sorted()
            .map { rules + "/" + $0 }
    }

    /// Edits each file without changing its rules: a comment line at the end.
    static func appendComment(to files: some Sequence<String>) throws {
        for file in files {
            guard let handle = FileHandle(forWritingAtPath: file) else { throw Failure(description: "cannot open \(file)") }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("# edited\n".utf8))
            try handle.close()
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// VmRSS of a process in kB (0 when unreadable).
    static func residentKB(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    /// The service manager's end of `NOTIFY_SOCKET`, read synchronously.
    final class NotifyListener {
        private let descriptor: Int32
        private let path: String

        init(path: String) throws {
            self.path = path
            unlink(path)
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw Failure(description: "socket path too long: \(path)") }
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0 else { throw Failure(description: "bind \(path): \(String(cString: strerror(errno)))") }
            var timeout = timeval(tv_sec: 1, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        /// The first datagram containing `text` (earlier ones are skipped).
        func waitFor(_ text: String, deadline seconds: Double) throws -> String {
            let end = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while Date() < end {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    let message = String(decoding: buffer[0..<count], as: UTF8.self)
                    if message.contains(text) { return message }
                }
            }
            throw Failure(description: "no '\(text)' from the daemon within \(Int(seconds)) s")
        }

        func close() {
            Foundation.close(descriptor)
            unlink(path)
        }
    }
}
