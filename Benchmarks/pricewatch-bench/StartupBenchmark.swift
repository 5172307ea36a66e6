import Foundation

/// `pricewatch-bench startup PRICEWATCH DIR RULES...`: for each count of rules, the daemon
/// (`pricewatch run`, a separate process) from spawn to `READY=1` on a `NOTIFY_SOCKET` of the
/// benchmark's own, then SIGHUP to the next `READY=1` (a reload of the same configuration),
/// and its resident memory once ready.
///
/// Checks its result: the `STATUS=` sent with READY must name the configured number of rules
/// and symbols; otherwise it prints the mismatch and exits 1. The configuration has 10 rules per
/// symbol (the benchmark mix of every condition kind) on a replay provider.
enum StartupBenchmark {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func run(executable: String, directory: String, ruleCounts: [Int]) throws {
        print("rules    symbols      start (ms)  reload (ms)     RSS (MB)  start ms per 1k rules")
        for count in ruleCounts {
            let symbols = max(count / 10, 1)
            let configDirectory = "\(directory)/startup-\(count)"
            try? FileManager.default.removeItem(atPath: configDirectory)
            try BenchmarkData.generate(directory: configDirectory, rows: symbols, symbols: symbols, rulesPerSymbol: 10)
            try BenchmarkData.moveRulesIntoDirectory(configDirectory)
            try Data(BenchmarkData.replayMainFile(interval: "60s").utf8).write(to: URL(fileURLWithPath: configDirectory + "/pricewatch.toml"))
            let result = try measure(executable: executable, directory: configDirectory, rules: symbols * 10, symbols: symbols)
            print(String(format: "%-8d %-10d %12.0f %12.0f %12.1f %22.2f", symbols * 10, symbols, result.start * 1000,
                         result.reload * 1000, Double(result.residentKB) / 1024, result.start * 1000 / (Double(symbols * 10) / 1000)))
        }
    }

    struct Result {
        var start: Double
        var reload: Double
        var residentKB: Int
    }

    static func measure(executable: String, directory: String, rules: Int, symbols: Int) throws -> Result {
        let socketPath = directory + "/notify.sock"
        let socket = try NotifyListener(path: socketPath)
        defer { socket.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["run", "--config", directory + "/pricewatch.toml", "--log-level", "warning"]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = socketPath
        environment.removeValue(forKey: "WATCHDOG_USEC")
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
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
        let hangup = clock.now
        kill(process.processIdentifier, SIGHUP)
        _ = try socket.waitFor("RELOADING=1", deadline: 120)
        let reloaded = try socket.waitFor("READY=1", deadline: 120)
        let reloadDone = clock.now
        guard reloaded.contains(expected) else {
            throw Failure(description: "reload: expected READY with '\(expected)', got '\(reloaded)'")
        }
        return Result(start: seconds(started - spawned), reload: seconds(reloadDone - hangup), residentKB: resident)
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
