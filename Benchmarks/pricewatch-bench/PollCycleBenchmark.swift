import Foundation
import Logging
import PriceWatchCore
import PriceWatchCurl
import PriceWatchEngine
import PriceWatchProviders
import PriceWatchStore
import PriceWatchTestKit
#if canImport(Glibc)
import Glibc
#endif

/// `pricewatch-bench poll-cycle [SYMBOLS] [CYCLES]`: one poll cycle of SYMBOLS symbols (default
/// 10,000) through the daemon's own parts: the `ProviderPoller` with its policy, the real
/// Binance provider (batches of 100) over the libcurl transport, against a loopback server
/// answering each batch, then the engine and an in-memory SQLite store (one rule per symbol;
/// every quote is new, so every cycle stores and evaluates them all). No rate limit: it
/// measures the machinery, not the service's quota. Prints requests, wall, CPU and memory.
enum PollCycleBenchmark {
    static func run(symbols count: Int, cycles: Int) async throws {
        let server = try LoopbackHTTPServer(handler: tickers)
        defer { server.stop() }
        let symbols = (0..<count).map { "SYM\($0)USDT" }
        let provider = BinanceProvider(name: "binance", transport: CurlHTTPTransport(), baseURL: server.baseURL)
        let threshold = ExactDecimal(scaled: 150 * ExactDecimal.unit)
        let rules = symbols.enumerated().map { index, symbol in
            Rule(id: "r\(index)", symbols: [symbol], provider: "binance", condition: .above(threshold), notify: ["null"])
        }
        guard let minute = RuleDuration(seconds: 60), let week = RuleDuration(seconds: 7 * 86_400) else { return }
        let configuration = Configuration(
            mainFile: "bench.toml", statePath: ":memory:", interval: minute, retention: week,
            providers: [ProviderConfiguration(name: "binance", type: "binance", interval: minute)],
            sinks: [SinkConfiguration(name: "null", type: "stdout")], rules: rules)
        let wallClock: @Sendable () -> Timestamp = { Timestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)) }
        let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        let evaluator = try await RuleEvaluator(configuration: configuration, store: try SQLiteAlertStore.inMemory(),
                                                doorbell: Doorbell(), logger: logger, now: wallClock())
        let poller = ProviderPoller(provider: provider, symbols: symbols, interval: .seconds(60), evaluator: evaluator,
                                    clock: ContinuousClock(), wallClock: wallClock, logger: logger)
        let batch = provider.maximumBatchSize
        let expected = (count + batch - 1) / batch
        print("poll cycle: \(count) symbols, binance provider (batches of \(batch)) over libcurl to a loopback server, "
              + "engine + in-memory SQLite; \(cycles) cycles after one warm-up")
        await poller.pollOnce() // warm-up: connection, first quotes
        var walls: [Double] = []
        var cpus: [Double] = []
        var requestCounts: [Int] = []
        for _ in 0..<cycles {
            let requestsBefore = server.requests.count
            let cpuBefore = cpuSeconds()
            let start = ContinuousClock.now
            await poller.pollOnce()
            let elapsed = start.duration(to: .now)
            walls.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            cpus.append(cpuSeconds() - cpuBefore)
            requestCounts.append(server.requests.count - requestsBefore)
            try await Task.sleep(for: .milliseconds(5)) // quotes of the next cycle carry a later closeTime
        }
        let sorted = walls.sorted()
        print("  requests/cycle   \(requestCounts.map(String.init).joined(separator: ", ")) (expected ceil(\(count)/\(batch)) = \(expected))")
        print(String(format: "  wall time/cycle  median %.3f s, best %.3f s, worst %.3f s", sorted[sorted.count / 2], sorted[0], sorted[sorted.count - 1]))
        print(String(format: "  CPU time/cycle   median %.3f s (user + system, whole process)", cpus.sorted()[cpus.count / 2]))
        print(String(format: "  max RSS          %.1f MB", maxResidentMegabytes()))
        if requestCounts.contains(where: { $0 != expected }) {
            print("  MISMATCH: requests per cycle differ from the expected \(expected)")
        }
    }

    /// Binance's 24-hour ticker list for the requested `symbols=["A","B",...]` (or `symbol=A`):
    /// a price from the symbol's number, `closeTime` now, so each cycle brings new quotes.
    @Sendable static func tickers(_ request: RecordedRequest) -> LoopbackResponse {
        let list = request.queryValue("symbols").map { text in
            text.dropFirst().dropLast().split(separator: ",").map { String($0.dropFirst().dropLast()) }
        } ?? request.queryValue("symbol").map { [$0] } ?? []
        let closeTime = Int64(Date().timeIntervalSince1970 * 1000)
        var json = "["
        for (index, symbol) in list.enumerated() {
            let cents = 5_000 + (Int(symbol.dropFirst(3).dropLast(4)) ?? 0) % 20_000
            if index > 0 { json += "," }
            json += #"{"symbol":"\#(symbol)","lastPrice":"\#(cents / 100).\#(cents % 100 < 10 ? "0" : "")\#(cents % 100)","prevClosePrice":"100.00","#
                + #""openTime":\#(closeTime - 86_400_000),"closeTime":\#(closeTime),"count":1}"#
        }
        return .json(json + "]")
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    static func maxResidentMegabytes() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }
}
