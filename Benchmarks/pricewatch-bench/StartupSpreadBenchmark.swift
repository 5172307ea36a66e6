import Foundation

/// `pricewatch-bench startup-spread PRICEWATCH DIR [STARTS]`: the spread of start-up on a
/// loaded machine. The 100,000-rule tree of the startup mode (10,000 symbols, 10 rules each,
/// replay provider) is started STARTS times (default 10), each over a fresh state file, from
/// spawn to `READY=1` on the benchmark's `NOTIFY_SOCKET`, while another process (a shell loop)
/// keeps one core busy; it prints each start, the median and the 90th percentile (the target:
/// under 300 ms).
///
/// Checks its result: every READY's status must name 100,000 rules on 10,000 symbols.
enum StartupSpreadBenchmark {
    static func run(executable: String, directory: String, starts: Int) throws {
        let symbols = 10_000
        let configDirectory = "\(directory)/startup-spread"
        try? FileManager.default.removeItem(atPath: configDirectory)
        try BenchmarkData.generate(directory: configDirectory, rows: symbols, symbols: symbols, rulesPerSymbol: 10)
        try BenchmarkData.moveRulesIntoDirectory(configDirectory)
        try Data(BenchmarkData.replayMainFile(interval: "60s").utf8).write(to: URL(fileURLWithPath: configDirectory + "/pricewatch.toml"))

        let busy = Process()
        busy.executableURL = URL(fileURLWithPath: "/bin/sh")
        busy.arguments = ["-c", "while :; do :; done"]
        try busy.run()
        defer {
            busy.terminate()
            busy.waitUntilExit()
        }
        var times: [Double] = []
        for _ in 0..<starts {
            try? FileManager.default.removeItem(atPath: configDirectory + "/state")
            times.append(try startOnce(executable: executable, directory: configDirectory, expected: "\(symbols * 10) rules on \(symbols) symbols"))
        }
        let sorted = times.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * p).rounded(.up)) - 1))] }
        print("start to READY, \(symbols * 10) rules, \(starts) starts, one core busy: "
            + times.map { String(format: "%.0f", $0 * 1000) }.joined(separator: " ") + " ms")
        print(String(format: "  median %.0f ms, p90 %.0f ms (target: p90 under 300 ms)", percentile(0.5) * 1000, percentile(0.9) * 1000))
    }

    /// One start of the daemon to READY, in seconds; the daemon is stopped afterwards.
    static func startOnce(executable: String, directory: String, expected: String) throws -> Double {
        let socketPath = directory + "/notify.sock"
        let socket = try StartupBenchmark.NotifyListener(path: socketPath)
        defer { socket.close() }
        let process = StartupBenchmark.daemonProcess(executable: executable, configuration: directory + "/pricewatch.toml",
                                                     notifySocket: socketPath, standardError: FileHandle(forWritingAtPath: "/dev/null"))
        let clock = ContinuousClock()
        let spawned = clock.now
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let ready = try socket.waitFor("READY=1", deadline: 120)
        let elapsed = StartupBenchmark.seconds(clock.now - spawned)
        guard ready.contains(expected) else {
            throw StartupBenchmark.Failure(description: "startup-spread: expected READY with '\(expected)', got '\(ready)'")
        }
        return elapsed
    }
}
