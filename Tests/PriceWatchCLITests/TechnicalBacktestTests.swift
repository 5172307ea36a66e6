import Foundation
import PriceWatchTestKit
import Testing

/// `pricewatch backtest` of technical rules (moving averages, RSI, MACD, Bollinger bands,
/// channels, rate of change; close and tick triggers; rearm, cooldown, once, percent rules on
/// a series) end to end, alert for alert against the independent reference of the Pine
/// definitions (`Tests/Fixtures/indicators/reference.py`), run by the test itself.
@Suite struct TechnicalBacktestTests {
    static func reference(_ rules: String, _ data: String) async throws -> [String] {
        let result = try await CommandRunner.run(program: "/usr/bin/env", [
            "python3", RepositoryFiles.path("Tests/Fixtures/indicators/reference.py"), "alerts",
            RepositoryFiles.path("Tests/Fixtures/indicators/\(rules)"), RepositoryFiles.path("demo/data/\(data)"),
        ])
        try #require(result.status == 0, "reference.py failed: \(result.standardError)")
        return result.outputLines
    }

    /// `rule symbol time price` of each alert the backtest printed as JSON.
    static func pricewatch(_ rules: String, _ data: String) async throws -> (lines: [String], objects: [[String: Any]], summary: [String]) {
        let result = try await CommandRunner.run(["backtest", "--rules", "Tests/Fixtures/indicators/\(rules)",
                                                  "--data", "demo/data/\(data)", "--format", "json"])
        try #require(result.status == 0, "backtest failed: \(result.standardError)")
        let objects = try result.outputLines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let lines = objects.map { object in
            let price = (object["price"] as? NSNumber).map { Decimal(string: $0.stringValue).map { "\($0)" } ?? "?" } ?? "?"
            return "\(object["rule"] as? String ?? "?") \(object["symbol"] as? String ?? "?") \(object["time"] as? String ?? "?") \(price)"
        }
        return (lines, objects, result.errorLines)
    }

    static func normalized(_ lines: [String]) -> [String] {
        lines.map { line in
            var fields = line.split(separator: " ").map(String.init)
            if fields.count == 4, let price = Decimal(string: fields[3]) { fields[3] = "\(price)" }
            return fields.joined(separator: " ")
        }
    }

    @Test(arguments: [("minute.toml", "aapl-1m-2024-10-02.csv"), ("monthly.toml", "stocks-monthly-2000-2010.csv")])
    func alertsAgreeWithTheReference(rules: String, data: String) async throws {
        let expected = Self.normalized(try await Self.reference(rules, data))
        let (lines, _, _) = try await Self.pricewatch(rules, data)
        #expect(expected.count >= 20, "the reference fired only \(expected.count) alerts: the comparison would say little")
        #expect(Self.normalized(lines) == expected)
        // Every rule of the file fired at least once, so each definition was exercised.
        let fired = Set(expected.map { String($0.split(separator: " ")[0]) })
        let text = try String(contentsOfFile: RepositoryFiles.path("Tests/Fixtures/indicators/\(rules)"), encoding: .utf8)
        let ids = text.matches(of: /id = "([a-z0-9-]+)"/).map { String($0.output.1) }
        #expect(Set(ids) == fired, "rules that never fired: \(Set(ids).subtracting(fired).sorted())")
    }

    @Test func alertsCarryTheSeriesAndTheirValues() async throws {
        let (_, objects, summary) = try await Self.pricewatch("minute.toml", "aapl-1m-2024-10-02.csv")
        let cross = try #require(objects.first { $0["rule"] as? String == "ema-cross-5m" })
        #expect(cross["of"] as? String == "ema(3)")
        #expect(cross["level"] as? String == "sma(8)")
        #expect(cross["timeframe"] as? String == "5m")
        #expect(cross["of_value"] is NSNumber && cross["level_value"] is NSNumber)
        #expect((cross["message"] as? String)?.contains("ema(3) ") == true)
        #expect((cross["message"] as? String)?.contains(" sma(8) ") == true)
        let rsi = try #require(objects.first { $0["rule"] as? String == "rsi-oversold-5m" })
        #expect(rsi["level"] as? String == "35")
        #expect((rsi["condition"] as? String) == "rsi(6) below 35 on 5m bars")
        #expect(summary.count == 1 && summary[0].hasPrefix("backtest: 389 rows, 14 rules, "), "\(summary)")
    }
}
