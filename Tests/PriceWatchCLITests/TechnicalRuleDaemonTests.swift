import Foundation
import PriceWatchTestKit
import Synchronization
import Testing

/// A technical rule in the running daemon (`pricewatch run`, real SQLite, libcurl, a Binance
/// provider on a loopback server, alerts on standard output): it warms up from the provider's
/// klines endpoint, fires on bar closes, and after a restart has its bars from the state file,
/// so nothing is fetched again and nothing fires twice.
@Suite struct TechnicalRuleDaemonTests {
    /// The ticker the loopback server answers: a price and its time.
    final class Ticker: Sendable {
        let state = Mutex<(price: String, time: Int64)>(("90", 0))
        func set(_ price: String, at time: Int64) { state.withLock { $0 = (price, time) } }
        var body: [UInt8] {
            let (price, time) = state.withLock { $0 }
            return Array("""
                [{"symbol":"BTCUSDT","lastPrice":"\(price)","prevClosePrice":"100","closeTime":\(time)}]
                """.utf8)
        }
    }

    static func alerts(_ daemon: RunningDaemon) -> [[String: Any]] {
        daemon.outputLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test func warmsUpFiresOnBarClosesAndSurvivesARestart() async throws {
        // Minute bars of the last hour (UTC-aligned: a crypto pair on no exchange's calendar).
        let base = (Int64(Date().timeIntervalSince1970) / 60 - 40) * 60_000
        let klines = (0..<30).map { minute in
            let open = base + Int64(minute) * 60_000
            // Falling closes, 130 down to 101: the last one is below its sma(5) of 103.
            let close = 130 - minute
            return "[\(open),\"\(close)\",\"\(close)\",\"\(close)\",\"\(close)\",\"1\",\(open + 59_999),\"100\",1,\"0\",\"0\",\"0\"]"
        }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let ticker = Ticker()
        server.route("GET", "/api/v3/klines") { _ in LoopbackResponse(body: Array("[\(klines.joined(separator: ","))]".utf8)) }
        server.route("GET", "/api/v3/ticker/24hr") { _ in LoopbackResponse(body: ticker.body) }
        let directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            interval = "1s"
            [providers.binance]
            type = "binance"
            base_url = "\(server.baseURL)"
            [sinks.out]
            type = "stdout"
            format = "json"
            """)
        try directory.write("rules.d/btc.toml", """
            [[rule]]
            id = "btc-above-sma"
            symbol = "BTCUSDT"
            timeframe = "1m"
            above = "sma(5)"
            """)
        let minute = { (index: Int64, second: Int64) in base + (30 + index) * 60_000 + second * 1_000 }

        // Before any history: the rule is warming up.
        let before = try await CommandRunner.run(["rules", "--config", "pricewatch.toml"], in: directory.path)
        #expect(before.status == 0, "\(before.standardError)")
        #expect(before.outputLines.contains { $0.contains("btc-above-sma") && $0.contains("warming up: 0 of 5 bars") },
                "\(before.outputLines)")

        // Warm-up: the 30 klines are fetched once; the rule is evaluated from the first bar on.
        ticker.set("90", at: minute(0, 10))
        var daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        try await waitUntil("the warm-up to fetch the klines and report the bars ready; standard error: \(daemon.errorLines.suffix(12))") {
            daemon.errorLines.contains { $0.contains("warmed up BTCUSDT 1m bars from provider 'binance'") && $0.contains("(ready)") }
        }
        // 90 is below sma(5) = 100 (104, 103, 102, 101, 90): the bar closes (by time, one poll
        // after its end) and nothing fires. Then a bar closing at 110, above its average of 101.2.
        try await Self.waitForPolls(3, server: server)
        ticker.set("110", at: minute(1, 10))
        try await daemon.waitForOutput("the alert of btc-above-sma") { lines in lines.contains { $0.contains("btc-above-sma") } }
        #expect(try await daemon.stop() == 0)
        let first = try #require(Self.alerts(daemon).first)
        #expect(first["time"] as? String == Self.rfc3339(minute(1, 10)))
        #expect(first["of"] as? String == "price")
        #expect(first["level"] as? String == "sma(5)")
        #expect((first["level_value"] as? NSNumber)?.doubleValue == 101.2)
        #expect((first["of_value"] as? NSNumber)?.doubleValue == 110)
        #expect(server.requests(path: "/api/v3/klines").count == 1)
        // `rules` reads the same bars from the state file: the series' values at the newest bar.
        let status = try await CommandRunner.run(["rules", "--config", "pricewatch.toml", "--format", "json"], in: directory.path)
        let rule = try #require(try JSONSerialization.jsonObject(with: Data((status.outputLines.first ?? "").utf8)) as? [String: Any])
        #expect(rule["state"] as? String == "fired")
        #expect((rule["bars"] as? Int).map { $0 >= 5 } == true)
        #expect((rule["sma(5)"] as? NSNumber)?.doubleValue == 101.2)
        #expect((rule["price"] as? NSNumber)?.doubleValue == 110)

        // A restart: bars from the state file (no klines request), the same bar again fires
        // nothing; 95, below its average of 99.6, re-arms the rule, and 130 (average 105.2) fires.
        daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        ticker.set("95", at: minute(2, 10))
        try await Self.waitForPolls(3, server: server)
        ticker.set("130", at: minute(3, 10))
        try await daemon.waitForOutput("the second alert of btc-above-sma") { lines in lines.contains { $0.contains("btc-above-sma") } }
        #expect(try await daemon.stop() == 0)
        let second = Self.alerts(daemon)
        #expect(second.count == 1, "\(daemon.outputLines)")
        #expect(second.first?["time"] as? String == Self.rfc3339(minute(3, 10)))
        #expect(server.requests(path: "/api/v3/klines").count == 1, "the restart fetched the history again")
        #expect(!daemon.errorLines.contains { $0.contains("warmed up") }, "\(daemon.errorLines)")

        // `watch` shows the series' values at the newest bar (130 over its average of 105.2),
        // and `history` draws the average over the prices, labelled.
        let watch = try await CommandRunner.run(["watch", "--config", "pricewatch.toml", "--format", "json"], in: directory.path)
        #expect(watch.status == 0, "\(watch.standardError)")
        let entry = try #require(try JSONSerialization.jsonObject(with: Data((watch.outputLines.first ?? "").utf8)) as? [String: Any])
        let watched = try #require((entry["rules"] as? [[String: Any]])?.first)
        #expect((watched["sma(5)"] as? NSNumber)?.doubleValue == 105.2, "\(watched)")
        #expect((watched["price"] as? NSNumber)?.doubleValue == 130, "\(watched)")
        let chart = try await CommandRunner.run(["history", "BTCUSDT", "--config", "pricewatch.toml", "--range", "1d", "--interval", "1m",
                                                 "--width", "100"], in: directory.path)
        #expect(chart.status == 0, "\(chart.standardError)")
        #expect(chart.outputLines.contains { $0.hasSuffix("· sma(5)") }, "\(chart.outputLines)")
        #expect(!chart.outputLines.contains { $0.contains("btc-above-sma") && $0.contains("off the chart") }, "\(chart.outputLines)")
    }

    /// Waits until the daemon has polled the ticker `count` more times: a quote set before is
    /// then evaluated, and its bar closed by time (one poll interval after its end).
    static func waitForPolls(_ count: Int, server: LoopbackHTTPServer) async throws {
        let start = server.requests(path: "/api/v3/ticker/24hr").count
        try await waitUntil("\(count) more polls of the ticker") {
            server.requests(path: "/api/v3/ticker/24hr").count >= start + count
        }
    }

    static func rfc3339(_ milliseconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        return date.formatted(.iso8601)
    }
}
