import Foundation
import PriceWatchTestKit
import Testing

/// `pricewatch backtest --symbol S --since SPAN`: the history fetched from a provider's chart
/// endpoint (Binance klines on a loopback server) gives the alerts the same prices give from a
/// file.
@Suite struct BacktestFetchTests {
    @Test func fetchedHistoryGivesTheAlertsOfTheSameFile() async throws {
        // The real AAPL session of 2024-10-02, moved to yesterday (whole days keep every bar's
        // alignment), served as one-minute klines.
        let text = try String(contentsOfFile: RepositoryFiles.path("demo/data/aapl-1m-2024-10-02.csv"), encoding: .utf8)
        let rows = text.split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: ",").map(String.init) }
        let sessionDay: Int64 = 1_727_827_200 // 2024-10-02T00:00:00Z
        let yesterday = (Int64(Date().timeIntervalSince1970) / 86_400 - 1) * 86_400
        let shift = (yesterday - sessionDay) * 1_000
        let klines = rows.map { fields -> String in
            let open = Self.milliseconds(fields[1]) + shift
            return "[\(open),\"\(fields[2])\",\"\(fields[2])\",\"\(fields[2])\",\"\(fields[2])\",\"1\",\(open + 59_999),\"1\",1,\"0\",\"0\",\"0\"]"
        }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/api/v3/klines") { _ in LoopbackResponse(body: Array("[\(klines.joined(separator: ","))]".utf8)) }
        let directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", """
            [providers.binance]
            type = "binance"
            base_url = "\(server.baseURL)"
            [sinks.out]
            type = "stdout"
            """)
        let rules = RepositoryFiles.path("Tests/Fixtures/indicators/minute.toml")
        let fetched = try await CommandRunner.run(["backtest", "--rules", rules, "--symbol", "AAPL", "--since", "7d",
                                                   "--config", "pricewatch.toml", "--format", "json"], in: directory.path)
        #expect(fetched.status == 0, "\(fetched.standardError)")
        #expect(fetched.errorLines.first == "backtest: AAPL: 389 1m candles from provider 'binance'")
        let fromFile = try await CommandRunner.run(["backtest", "--rules", rules, "--data", "demo/data/aapl-1m-2024-10-02.csv", "--format", "json"])
        // Klines carry no previous close: the rule that falls from it cannot fire on them.
        let expected = try fromFile.outputLines.compactMap { line -> String? in
            let alert = try Self.object(line)
            guard alert["rule"] as? String != "price-fall-15m" else { return nil }
            return "\(alert["rule"] ?? "") \(Self.milliseconds(alert["time"] as? String ?? "") + shift) \(alert["price"] ?? "")"
        }
        let got = try fetched.outputLines.map { line -> String in
            let alert = try Self.object(line)
            return "\(alert["rule"] ?? "") \(Self.milliseconds(alert["time"] as? String ?? "")) \(alert["price"] ?? "")"
        }
        #expect(expected.count >= 50)
        #expect(got == expected)
        #expect(server.requests(path: "/api/v3/klines").count == 1)
    }

    @Test func dataAndSymbolAreExclusiveAndSinceIsChecked() async throws {
        let both = try await CommandRunner.run(["backtest", "--rules", "demo/rules.d", "--data", "x.csv", "--symbol", "AAPL"])
        #expect(both.status == 64)
        #expect(both.standardError.contains("--data and --symbol are both given"))
        let neither = try await CommandRunner.run(["backtest", "--rules", "demo/rules.d"])
        #expect(neither.standardError.contains("expected --data FILE or --symbol SYMBOL"))
        let span = try await CommandRunner.run(["backtest", "--rules", "demo/rules.d", "--symbol", "AAPL", "--since", "2 years"])
        #expect(span.standardError.contains("--since: expected a span such as '30d', '12w', '6mo' or '2y', found '2 years'"))
    }

    static func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    static func milliseconds(_ rfc3339: String) -> Int64 {
        guard let date = try? Date(rfc3339, strategy: .iso8601) else { return -1 }
        return Int64(date.timeIntervalSince1970 * 1000)
    }
}
