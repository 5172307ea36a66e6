import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchTestKit

/// `pricewatch-bench daemon-poll PRICEWATCH DIR SYMBOLS [CYCLES] [INTERVAL_SECONDS] [RULES_PER_SYMBOL]`: the daemon
/// as users run it, not a component. The real `pricewatch run` process (a separate process:
/// its CPU and memory are its own), with a WAL state file in DIR and every consumer of the
/// quote stream on (rule evaluator, history recorder, paper fills, market state, the HTTP
/// endpoint's live quotes and metrics), polls SYMBOLS symbols (half on `yahoo`: v7 quote
/// batches of 50 after the cookie/crumb session, half on `binance`: batches of 100) from this
/// process's loopback servers, every INTERVAL_SECONDS (default 10), with RULES_PER_SYMBOL
/// rules per symbol (default 2: 50,000 symbols are 100,000 rules; 10,000 symbols with 10 are
/// the 100,000 rules of the startup mode).
///
/// Prints, per cycle: the requests each server received (must equal ceil(symbols / batch)),
/// the daemon's own timing of the poll from its `/metrics` (`pricewatch_poll_duration_seconds`
/// and the `fetch` and `consume` phases of `pricewatch_poll_phase_duration_seconds`), its CPU
/// seconds from one cycle's end to the next (`/proc/PID/stat`: the poll plus the idle rest of
/// the interval and this benchmark's scrapes of `/metrics`, one a second) and its resident memory; then start
/// to READY, resident memory after the polls, after each of three reloads (every rule file
/// edited) and the poll that follows it, and the peak (`VmHWM`).
///
/// Checks its results and exits 1 on a mismatch: requests per cycle as expected, and the alerts
/// the daemon fired (`pricewatch_alerts_fired_total`) equal to `pricewatch backtest` of the
/// same rules over the same quotes (one row per symbol per poll the daemon made).
enum DaemonPollBenchmark {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Prices in cents from a symbol's number, as the loopback servers answer them
    /// (``PollCycleBenchmark/price(number:)``): 50.00 to 249.99.
    static let aboveLevel = "249.90"
    static let belowLevel = "50.05"

    static func run(executable: String, directory: String, symbols: Int, cycles: Int, interval: Int, rulesPerSymbol: Int = 2) async throws {
        let yahooCount = symbols / 2
        let binanceCount = symbols - yahooCount
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory + "/rules.d", withIntermediateDirectories: true)

        let yahooServer = try LoopbackHTTPServer()
        yahooServer.route("GET", "/") { _ in .status(404, headers: [HTTPHeader("Set-Cookie", "A3=bench; Path=/; HttpOnly")]) }
        yahooServer.route("GET", "/v1/test/getcrumb") { _ in .text("benchCrumb42") }
        yahooServer.route("GET", "/v7/finance/quote", PollCycleBenchmark.yahooQuotes)
        let binanceServer = try LoopbackHTTPServer()
        binanceServer.route("GET", "/api/v3/ticker/24hr", PollCycleBenchmark.tickers)
        binanceServer.setFallback(PollCycleBenchmark.tickers)
        defer { yahooServer.stop(); binanceServer.stop() }
        let httpPort = try freePort()
        try writeConfiguration(directory: directory, yahooURL: yahooServer.baseURL, binanceURL: binanceServer.baseURL,
                               httpPort: httpPort, interval: interval, yahoo: yahooCount, binance: binanceCount,
                               rulesPerSymbol: rulesPerSymbol)
        let expected = [("yahoo", yahooCount, 50), ("binance", binanceCount, 100)].filter { $0.1 > 0 }
            .map { (name: $0.0, requests: ($0.1 + $0.2 - 1) / $0.2) }
        let batchCount: @Sendable (String) -> Int = { name in
            name == "yahoo" ? yahooServer.requests(path: "/v7/finance/quote").count : binanceServer.requests.count
        }

        let socketPath = directory + "/notify.sock"
        let socket = try StartupBenchmark.NotifyListener(path: socketPath)
        defer { socket.close() }
        _ = FileManager.default.createFile(atPath: directory + "/stderr", contents: nil)
        let process = StartupBenchmark.daemonProcess(executable: executable, configuration: directory + "/pricewatch.toml",
                                                     notifySocket: socketPath, standardError: FileHandle(forWritingAtPath: directory + "/stderr"),
                                                     extraArguments: ["--log-target", "stderr"])
        let clock = ContinuousClock()
        let spawned = clock.now
        try process.run()
        defer {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
        let pid = process.processIdentifier
        let ready = try socket.waitFor("READY=1", deadline: 300)
        let startSeconds = StartupBenchmark.seconds(clock.now - spawned)
        let readyKB = StartupBenchmark.residentKB(pid)
        let readyTicks = StartupBenchmark.cpuTicks(pid)
        let rules = symbols * rulesPerSymbol
        guard ready.contains("\(rules) rules on \(symbols) symbols") else {
            throw Failure(description: "daemon-poll: expected READY with '\(rules) rules on \(symbols) symbols', got '\(ready)'")
        }
        let metrics = MetricsReader(url: "http://127.0.0.1:\(httpPort)/metrics")

        print("daemon poll: the pricewatch process (\(executable)) polling \(symbols) symbols "
              + "(\(expected.map { "\($0.name) \($0.name == "yahoo" ? yahooCount : binanceCount)" }.joined(separator: ", "))) "
              + "every \(interval) s from loopback servers, \(rules) rules, WAL state file, [http] on; "
              + "\(cycles) cycles after the first")
        print(String(format: "  start to READY %.0f ms, resident %.1f MB at READY", startSeconds * 1000, Double(readyKB) / 1024))
        print("  cycle  requests (expected)                poll, daemon's timing   fetch     consume    CPU s    RSS MB")
        var mismatches: [String] = []
        // Cycle 0 counts from READY: the first poll, its requests (yahoo's session apart) and CPU.
        var previous = MetricsReader.Samples(values: [])
        var previousTicks = readyTicks
        var previousBatches = expected.map { _ in 0 }
        var steady: [(total: Double, consume: Double, cpu: Double)] = []
        for cycle in 0...cycles {
            let now = try await metrics.waitForPolls(cycle + 1, providers: expected.map(\.name), deadline: Double(interval) * 3 + 120)
            let ticks = StartupBenchmark.cpuTicks(pid)
            let batches = expected.map { batchCount($0.name) }
            let requests = zip(batches, previousBatches).map { $0 - $1 }
            for (index, leg) in expected.enumerated() where requests[index] != leg.requests {
                mismatches.append("cycle \(cycle): \(leg.name) received \(requests[index]) requests, expected \(leg.requests)")
            }
            // The providers poll concurrently: the cycle lasts as long as the slower one.
            let total = expected.map { now.sum("pricewatch_poll_duration_seconds", provider: $0.name) - previous.sum("pricewatch_poll_duration_seconds", provider: $0.name) }.max() ?? 0
            let fetch = expected.map { now.phase("fetch", $0.name) - previous.phase("fetch", $0.name) }.max() ?? 0
            let consume = expected.map { now.phase("consume", $0.name) - previous.phase("consume", $0.name) }.max() ?? 0
            let cpu = Double(ticks - previousTicks) / Double(sysconf(Int32(_SC_CLK_TCK)))
            let counts = zip(requests, expected).map { "\($0.1.name) \($0.0) (\($0.1.requests))" }.joined(separator: ", ")
            print(String(format: "  %5d  %@ %10.3f s %9.3f s %9.3f s %8.2f %9.1f", cycle,
                         counts.padding(toLength: 34, withPad: " ", startingAt: 0), total, fetch, consume, cpu,
                         Double(StartupBenchmark.residentKB(pid)) / 1024))
            if cycle > 0 { steady.append((total, consume, cpu)) }
            previous = now
            previousTicks = ticks
            previousBatches = batches
        }
        let afterPollsKB = StartupBenchmark.residentKB(pid)
        func median(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.sorted()[values.count / 2] }
        print(String(format: "  median of cycles 1-%d: poll %.3f s (target: committed within 1 s of the last answer: consume %.3f s), "
                     + "CPU %.2f s a cycle (target under 1)", cycles, median(steady.map(\.total)), median(steady.map(\.consume)),
                     median(steady.map(\.cpu))))
        print(String(format: "  resident after %d polls: %.1f MB (target under 100 MB)", cycles + 1, Double(afterPollsKB) / 1024))

        // Reloads: every rule file edited, SIGHUP to READY, then the poll that follows.
        let files = try StartupBenchmark.ruleFiles(in: directory)
        var polled = cycles + 1
        for reload in 1...3 {
            try StartupBenchmark.appendComment(to: files)
            let hangup = clock.now
            kill(pid, SIGHUP)
            _ = try socket.waitFor("RELOADING=1", deadline: 120)
            let reloaded = try socket.waitFor("READY=1", deadline: 300)
            let seconds = StartupBenchmark.seconds(clock.now - hangup)
            guard reloaded.contains("\(rules) rules on \(symbols) symbols"), !reloaded.contains("rejected") else {
                throw Failure(description: "daemon-poll: reload \(reload) ended with '\(reloaded)'")
            }
            let reloadedKB = StartupBenchmark.residentKB(pid)
            // The pollers start again at the switch: their first poll comes at once.
            polled += 1
            _ = try await metrics.waitForPolls(polled, providers: expected.map(\.name), deadline: Double(interval) * 3 + 120)
            print(String(format: "  reload %d: SIGHUP to READY %.0f ms; resident %.1f MB at READY, %.1f MB after the next poll (target under 100 MB)",
                         reload, seconds * 1000, Double(reloadedKB) / 1024, Double(StartupBenchmark.residentKB(pid)) / 1024))
        }
        print(String(format: "  peak resident (VmHWM) %.1f MB", Double(peakKB(pid)) / 1024))

        // Alerts: the daemon's against the backtest of the same rules over the same quotes.
        let final = try await metrics.read(deadline: 60)
        let polls = expected.map { final.sum("pricewatch_poll_duration_seconds_count", provider: $0.name, exact: true) }
        let fired = Int(final.total("pricewatch_alerts_fired_total"))
        let backtest = try backtestAlerts(executable: executable, directory: directory, yahoo: yahooCount, binance: binanceCount,
                                          polls: Int(polls.max() ?? 0), interval: interval)
        print("  alerts fired by the daemon \(fired), by the backtest of the same quotes \(backtest)\(fired == backtest ? "" : "  <-- MISMATCH")")
        if fired != backtest { mismatches.append("alerts: the daemon fired \(fired), the backtest \(backtest)") }

        process.terminate()
        process.waitUntilExit()
        if !mismatches.isEmpty {
            for mismatch in mismatches { print("  MISMATCH: \(mismatch)") }
            FileHandle.standardError.write(Data("pricewatch-bench: MISMATCH in daemon-poll\n".utf8))
            exit(1)
        }
    }

    static func writeConfiguration(directory: String, yahooURL: String, binanceURL: String, httpPort: UInt16, interval: Int,
                                   yahoo: Int, binance: Int, rulesPerSymbol: Int) throws {
        let main = """
            state = "state/pricewatch.db"
            interval = "\(interval)s"
            notify = ["console"]

            [providers.yahoo]
            type = "yahoo"
            base_url = "\(yahooURL)"
            session_url = "\(yahooURL)"
            requests_per_minute = 1000000

            [providers.binance]
            type = "binance"
            base_url = "\(binanceURL)"
            requests_per_minute = 1000000

            [sinks.console]
            type = "stdout"

            [http]
            listen = "127.0.0.1:\(httpPort)"

            """
        try Data(main.utf8).write(to: URL(fileURLWithPath: directory + "/pricewatch.toml"))
        var symbols: [(symbol: String, provider: String)] = (0..<yahoo).map { ("YS\($0)", "yahoo") }
        symbols += (0..<binance).map { ("SYM\($0)USDT", "binance") }
        for start in stride(from: 0, to: symbols.count, by: 500) {
            var text = ""
            for (symbol, provider) in symbols[start..<min(start + 500, symbols.count)] {
                // A symbol of no known market is polled always; `market` says so for Yahoo's,
                // whose answers name NASDAQ (closed at night).
                let market = provider == "yahoo" ? "market = \"24/7\"\n" : ""
                for index in 0..<rulesPerSymbol {
                    let condition = index % 2 == 0 ? "above = \(aboveLevel)" : "below = \(belowLevel)"
                    text += "[[rule]]\nid = \"\(symbol.lowercased())-\(index)\"\nsymbol = \"\(symbol)\"\nprovider = \"\(provider)\"\n\(condition)\n\(market)\n"
                }
            }
            try Data(text.utf8).write(to: URL(fileURLWithPath: String(format: "%@/rules.d/rules-%05d.toml", directory, start / 500)))
        }
    }

    /// The backtest of the configuration's rules over the quotes the servers gave: each
    /// symbol's price once per poll. Returns its alert count.
    static func backtestAlerts(executable: String, directory: String, yahoo: Int, binance: Int, polls: Int, interval: Int) throws -> Int {
        var csv = "symbol,time,price\n"
        let symbols = (0..<yahoo).map { ("YS\($0)", $0) } + (0..<binance).map { ("SYM\($0)USDT", $0) }
        for poll in 0..<polls {
            let time = 1_727_875_800 + poll * interval
            for (symbol, number) in symbols {
                let cents = PollCycleBenchmark.price(number: number)
                csv += "\(symbol),\(time),\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)\n"
            }
        }
        try Data(csv.utf8).write(to: URL(fileURLWithPath: directory + "/quotes.csv"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["backtest", "--rules", directory + "/rules.d", "--data", directory + "/quotes.csv"]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // "backtest: 389 rows, 7 rules, 2723 evaluations, 13 alerts"
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("backtest: ") && $0.hasSuffix(" alerts") }),
              let count = line.split(separator: " ").dropLast().last.flatMap({ Int($0) }) else {
            throw Failure(description: "daemon-poll: no summary from pricewatch backtest: \(text.suffix(500))")
        }
        return count
    }

    /// VmHWM of a process in kB (0 when unreadable).
    static func peakKB(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    /// A loopback port nobody listens on now.
    static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(descriptor, pointer, length) == 0 else { return -1 }
                return getsockname(descriptor, pointer, &length)
            }
        }
        guard bound == 0 else { throw Failure(description: "bind: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// The daemon's `/metrics`, parsed into sample lines.
    struct MetricsReader {
        let url: String
        let transport = CurlHTTPTransport()

        struct Samples {
            /// Each sample line's name with labels, and its value.
            let values: [(String, Double)]

            /// The value of `name` (a sum of a histogram, or with `exact` the sample itself) for `provider`.
            func sum(_ name: String, provider: String, exact: Bool = false) -> Double {
                let metric = exact ? name : name + "_sum"
                return values.first { $0.0.hasPrefix(metric + "{") && $0.0.contains("provider=\"\(provider)\"") }?.1 ?? 0
            }

            func phase(_ phase: String, _ provider: String) -> Double {
                values.first {
                    $0.0.hasPrefix("pricewatch_poll_phase_duration_seconds_sum{") && $0.0.contains("provider=\"\(provider)\"")
                        && $0.0.contains("phase=\"\(phase)\"")
                }?.1 ?? 0
            }

            /// The sum of every series of `name`.
            func total(_ name: String) -> Double {
                values.filter { $0.0 == name || $0.0.hasPrefix(name + "{") }.reduce(0) { $0 + $1.1 }
            }
        }

        func read(deadline seconds: Double) async throws -> Samples {
            let end = ContinuousClock.now + .seconds(seconds)
            while true {
                if let response = try? await transport.send(HTTPRequest(url: url, timeout: .seconds(10))), response.status == 200 {
                    let text = String(decoding: response.body, as: UTF8.self)
                    var values: [(String, Double)] = []
                    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                        guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
                        values.append((String(line[..<space]), value))
                    }
                    return Samples(values: values)
                }
                guard ContinuousClock.now < end else { throw Failure(description: "daemon-poll: no answer from \(url) within \(Int(seconds)) s") }
                try await Task.sleep(for: .milliseconds(250))
            }
        }

        /// Waits until every provider's poll count reaches `count` (the poll's timing is then
        /// recorded), reading `/metrics` once a second, as a busy Prometheus would at most.
        func waitForPolls(_ count: Int, providers: [String], deadline seconds: Double) async throws -> Samples {
            let end = ContinuousClock.now + .seconds(seconds)
            while true {
                let samples = try await read(deadline: seconds)
                if providers.allSatisfy({ samples.sum("pricewatch_poll_duration_seconds_count", provider: $0, exact: true) >= Double(count) }) {
                    return samples
                }
                guard ContinuousClock.now < end else {
                    throw Failure(description: "daemon-poll: \(providers) did not reach \(count) polls within \(Int(seconds)) s")
                }
                try await Task.sleep(for: .seconds(1))
            }
        }
    }
}
