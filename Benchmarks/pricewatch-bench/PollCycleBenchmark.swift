import Foundation
import Logging
import PriceWatchCore
import PriceWatchCurl
import PriceWatchServices
import PriceWatchProviders
import PriceWatchStore
import PriceWatchTestKit
#if canImport(Glibc)
import Glibc
#endif

/// `pricewatch-bench poll-cycle [SYMBOLS[,SYMBOLS…]] [CYCLES] [YAHOO_SYMBOLS]`: poll cycles of
/// SYMBOLS symbols (default 10,000 then 50,000) split over two real batching providers, each with its own
/// `ProviderPoller` and its own loopback server, over the libcurl transport: YAHOO_SYMBOLS
/// (default half) on `yahoo` (v7 quote batches of 50, after the cookie/crumb session) and the
/// rest on `binance` (batches of 100). Both pollers run concurrently, as in the daemon, into
/// one engine with an in-memory SQLite store (one rule per symbol; every cycle brings new
/// quotes, so every cycle stores and evaluates them all). No rate limit: it measures the
/// machinery, not the services' quotas. Prints, per provider, the expected requests
/// (ceil(symbols / batch)) and those the server received, then wall, CPU and memory; exits 1
/// on a mismatch (issue 3 item 7).
enum PollCycleBenchmark {
    /// The sizes of issue 16: 10,000 symbols (CPU per cycle to halve) and 50,000 (under 1 s).
    static let defaultSizes = [10_000, 50_000]

    /// One provider of the cycle: its poller, its server, and what the server must see.
    struct Leg {
        let name: String
        let symbols: Int
        let batch: Int
        let server: LoopbackHTTPServer
        /// One poll of every symbol of this provider (`ProviderPoller.pollOnce`).
        let pollOnce: @Sendable () async -> Void
        /// Requests that are not quote batches (yahoo's session setup), excluded from the count.
        let isSetup: @Sendable (RecordedRequest) -> Bool
        var expected: Int { (symbols + batch - 1) / batch }
        func counts() -> (batches: Int, setup: Int) {
            let all = server.requests
            let setup = all.filter(isSetup).count
            return (all.count - setup, setup)
        }
    }

    static func run(symbols count: Int, cycles: Int, yahooSymbols requestedYahoo: Int?) async throws {
        let yahooCount = min(max(requestedYahoo ?? count / 2, 0), count)
        let binanceCount = count - yahooCount
        let yahooSymbols = (0..<yahooCount).map { "YS\($0)" }
        let binanceSymbols = (0..<binanceCount).map { "SYM\($0)USDT" }
        guard let minute = RuleDuration(seconds: 60), let week = RuleDuration(seconds: 7 * 86_400) else { return }
        let threshold = ExactDecimal(scaled: 150 * ExactDecimal.unit)
        var rules: [Rule] = []
        for (provider, symbols) in [("yahoo", yahooSymbols), ("binance", binanceSymbols)] {
            for symbol in symbols {
                rules.append(Rule(id: "r\(rules.count)", symbols: [symbol], provider: provider,
                                  condition: .above(threshold), notify: ["null"]))
            }
        }
        let configuration = Configuration(
            mainFile: "bench.toml", statePath: ":memory:", interval: minute, retention: week,
            providers: [ProviderConfiguration(name: "yahoo", type: "yahoo", interval: minute),
                        ProviderConfiguration(name: "binance", type: "binance", interval: minute)],
            sinks: [SinkConfiguration(name: "null", type: "stdout")], rules: rules)
        let wallClock: @Sendable () -> Timestamp = { Timestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)) }
        let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        let evaluator = try await RuleEvaluator(configuration: configuration, store: try SQLiteAlertStore.inMemory(),
                                                doorbell: Doorbell(), logger: logger, now: wallClock())

        let yahooServer = try LoopbackHTTPServer()
        yahooServer.route("GET", "/") { _ in .status(404, headers: [HTTPHeader("Set-Cookie", "A3=bench; Path=/; HttpOnly")]) }
        yahooServer.route("GET", "/v1/test/getcrumb") { _ in .text("benchCrumb42") }
        yahooServer.route("GET", "/v7/finance/quote", yahooQuotes)
        let binanceServer = try LoopbackHTTPServer()
        binanceServer.route("GET", "/api/v3/ticker/24hr", tickers)
        binanceServer.setFallback(tickers)
        defer { yahooServer.stop(); binanceServer.stop() }
        let yahoo = YahooProvider(name: "yahoo", transport: CurlHTTPTransport(), baseURL: yahooServer.baseURL)
        let binance = BinanceProvider(name: "binance", transport: CurlHTTPTransport(), baseURL: binanceServer.baseURL)
        var legs: [Leg] = []
        if yahooCount > 0 {
            legs.append(Leg(name: "yahoo", symbols: yahooCount, batch: yahoo.maximumBatchSize, server: yahooServer,
                            pollOnce: { [poller = ProviderPoller(provider: yahoo, symbols: yahooSymbols, interval: .seconds(60), consumers: [evaluator],
                                                                  clock: ContinuousClock(), wallClock: wallClock, logger: logger)] in
                                await poller.pollOnce() },
                            isSetup: { $0.path != "/v7/finance/quote" }))
        }
        if binanceCount > 0 {
            legs.append(Leg(name: "binance", symbols: binanceCount, batch: binance.maximumBatchSize, server: binanceServer,
                            pollOnce: { [poller = ProviderPoller(provider: binance, symbols: binanceSymbols, interval: .seconds(60), consumers: [evaluator],
                                                                  clock: ContinuousClock(), wallClock: wallClock, logger: logger)] in
                                await poller.pollOnce() },
                            isSetup: { _ in false }))
        }
        let expectedTotal = legs.reduce(0) { $0 + $1.expected }
        print("poll cycle: \(count) symbols over \(legs.map { "\($0.name) (\($0.symbols), batches of \($0.batch))" }.joined(separator: " + ")), "
              + "both pollers concurrently over libcurl to loopback servers, engine + in-memory SQLite; \(cycles) cycles after one warm-up")
        let polls = legs.map(\.pollOnce)
        let cycle: @Sendable () async -> Void = {
            await withTaskGroup(of: Void.self) { group in
                for poll in polls { group.addTask { await poll() } }
            }
        }
        await cycle() // warm-up: connections, yahoo's session, first quotes
        let warmUp = legs.map { $0.counts() }
        var walls: [Double] = []
        var cpus: [Double] = []
        var received: [[Int]] = legs.map { _ in [] }
        var setups: [[Int]] = legs.map { _ in [] }
        for _ in 0..<cycles {
            // Yahoo quotes carry whole seconds: a cycle a second later brings new quotes.
            try await Task.sleep(for: .milliseconds(1_050))
            let before = legs.map { $0.counts() }
            let cpuBefore = cpuSeconds()
            let start = ContinuousClock.now
            await cycle()
            let elapsed = start.duration(to: .now)
            walls.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            cpus.append(cpuSeconds() - cpuBefore)
            for (index, leg) in legs.enumerated() {
                let after = leg.counts()
                received[index].append(after.batches - before[index].batches)
                setups[index].append(after.setup - before[index].setup)
            }
        }
        var mismatch = false
        for (index, leg) in legs.enumerated() {
            let line = received[index].map(String.init).joined(separator: ", ")
            let bad = received[index].contains { $0 != leg.expected }
            mismatch = mismatch || bad
            print("  \(leg.name.padding(toLength: 8, withPad: " ", startingAt: 0)) \(leg.symbols) symbols, batch \(leg.batch): "
                  + "expected ceil(\(leg.symbols)/\(leg.batch)) = \(leg.expected) requests/cycle, received \(line)\(bad ? "  <-- MISMATCH" : "")")
            if leg.name == "yahoo" {
                print("           session setup (not counted): \(warmUp[index].setup) in warm-up, "
                      + "\(setups[index].map(String.init).joined(separator: ", ")) in the measured cycles")
            }
        }
        let totals = (0..<cycles).map { cycle in received.reduce(0) { $0 + $1[cycle] } }
        print("  total            expected \(expectedTotal) requests/cycle, received \(totals.map(String.init).joined(separator: ", "))")
        let sorted = walls.sorted()
        print(String(format: "  wall time/cycle  median %.3f s, best %.3f s, worst %.3f s", sorted[sorted.count / 2], sorted[0], sorted[sorted.count - 1]))
        print(String(format: "  CPU time/cycle   median %.3f s (user + system, whole process)", cpus.sorted()[cpus.count / 2]))
        print(String(format: "  max RSS          %.1f MB", maxResidentMegabytes()))
        if mismatch {
            print("  MISMATCH: requests per cycle differ from the sum over providers of ceil(symbols / batch size) = \(expectedTotal)")
            FileHandle.standardError.write(Data("pricewatch-bench: MISMATCH in poll-cycle request counts\n".utf8))
            exit(1)
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
            let cents = price(number: Int(symbol.dropFirst(3).dropLast(4)) ?? 0)
            if index > 0 { json += "," }
            json += #"{"symbol":"\#(symbol)","lastPrice":"\#(cents / 100).\#(cents % 100 < 10 ? "0" : "")\#(cents % 100)","prevClosePrice":"100.00","#
                + #""openTime":\#(closeTime - 86_400_000),"closeTime":\#(closeTime),"count":1}"#
        }
        return .json(json + "]")
    }

    /// Yahoo's v7 quote answer for `symbols=A,B,...` (the fields the decoder reads, as in
    /// `Tests/Fixtures/providers/yahoo/quote_AAPL_BABA_multi.json`), `regularMarketTime` now.
    @Sendable static func yahooQuotes(_ request: RecordedRequest) -> LoopbackResponse {
        let list = (request.queryValue("symbols") ?? "").split(separator: ",").map(String.init)
        let seconds = Int64(Date().timeIntervalSince1970)
        var json = #"{"quoteResponse":{"result":["#
        for (index, symbol) in list.enumerated() {
            let cents = price(number: Int(symbol.dropFirst(2)) ?? 0)
            if index > 0 { json += "," }
            json += #"{"language":"en-US","region":"US","quoteType":"EQUITY","currency":"USD","priceHint":2,"#
                + #""regularMarketPrice":\#(cents / 100).\#(cents % 100 < 10 ? "0" : "")\#(cents % 100),"regularMarketTime":\#(seconds),"#
                + #""regularMarketPreviousClose":100.0,"exchange":"NMS","exchangeTimezoneName":"America/New_York","#
                + #""marketState":"REGULAR","symbol":"\#(symbol)"}"#
        }
        return .json(json + #"],"error":null}}"#)
    }

    static func price(number: Int) -> Int { 5_000 + number % 20_000 }

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
