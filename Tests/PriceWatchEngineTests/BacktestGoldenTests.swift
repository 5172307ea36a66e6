import PriceWatchCore
import PriceWatchProviders
import PriceWatchTestKit
import Testing

/// The backtest (the daemon's engine) over the real recorded series, compared alert by alert
/// with the golden files produced by the independent Python reference
/// (`Tests/Fixtures/backtest/oracle.py`).
@Suite struct BacktestGoldenTests {
    struct GoldenAlert: Hashable, CustomStringConvertible {
        var rule: String
        var symbol: String
        var time: String
        var price: ExactDecimal
        var description: String { "\(rule) \(symbol) \(time) \(price)" }
    }

    static func golden(_ name: String) throws -> [GoldenAlert] {
        let text = try #require(try? String(contentsOfFile: RepositoryFiles.path("Tests/Fixtures/backtest/\(name)"), encoding: .utf8))
        return try text.split(separator: "\n").map { line in
            let fields = line.split(separator: " ").map(String.init)
            try #require(fields.count == 4, "golden line: \(line)")
            return GoldenAlert(rule: fields[0], symbol: fields[1], time: fields[2], price: try ExactDecimal(parsing: fields[3]))
        }
    }

    static func backtest(_ rules: [Rule], data: String) throws -> ([GoldenAlert], Backtester.Summary) {
        let (series, diagnostics) = PriceSeriesFile.read(path: RepositoryFiles.path("demo/data/\(data)"))
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        var alerts: [GoldenAlert] = []
        let summary = Backtester.run(rules: rules, series: try #require(series)) { alert in
            alerts.append(GoldenAlert(rule: alert.rule, symbol: alert.symbol, time: alert.time.rfc3339, price: alert.price))
        }
        return (alerts, summary)
    }

    static func duration(_ text: String) throws -> RuleDuration { try RuleDuration(parsing: text) }
    static func decimal(_ text: String) throws -> ExactDecimal { try ExactDecimal(parsing: text) }

    /// The rules of `demo/rules.d/aapl.toml`.
    static func demoRules() throws -> [Rule] {
        [
            Rule(id: "aapl-above-225.5", symbols: ["AAPL"], condition: .above(try decimal("225.5")), rearm: try decimal("0.2")),
            Rule(id: "aapl-below-224", symbols: ["AAPL"], condition: .below(try decimal("224")), rearm: try decimal("0.1")),
            Rule(id: "aapl-crosses-224.5", symbols: ["AAPL"], condition: .crosses(try decimal("224.5")), cooldown: try duration("5m")),
            Rule(id: "aapl-fall-1pct", symbols: ["AAPL"], condition: .fall(try decimal("1"))),
            Rule(id: "aapl-move-0.5pct-5m", symbols: ["AAPL"], condition: .move(try decimal("0.5")),
                 baseline: .window(try duration("5m")), rearm: try decimal("0.2")),
            Rule(id: "aapl-rise-0.5pct-30m", symbols: ["AAPL"], condition: .rise(try decimal("0.5")),
                 baseline: .window(try duration("30m")), cooldown: try duration("15m")),
            Rule(id: "aapl-above-227-once", symbols: ["AAPL"], condition: .above(try decimal("227")), once: true),
        ]
    }

    @Test func aaplSessionMatchesTheReference() throws {
        let (alerts, summary) = try Self.backtest(try Self.demoRules(), data: "aapl-1m-2024-10-02.csv")
        let expected = try Self.golden("aapl-demo.expected")
        #expect(expected.count == 13)
        #expect(alerts == expected)
        #expect(summary.rows == 389)
        #expect(summary.accepted == 389)
        #expect(summary.evaluations == 389 * 7)
    }

    @Test func monthlyStocksMatchTheReference() throws {
        let all = ["AAPL", "AMZN", "GOOG", "IBM", "MSFT"]
        let rules = [
            Rule(id: "fall-20pct-90d", symbols: all, condition: .fall(try Self.decimal("20")),
                 baseline: .window(try Self.duration("90d")), rearm: try Self.decimal("10")),
            Rule(id: "rise-25pct-30d", symbols: all, condition: .rise(try Self.decimal("25")), baseline: .window(try Self.duration("30d"))),
            Rule(id: "msft-crosses-25", symbols: ["MSFT"], condition: .crosses(try Self.decimal("25")), cooldown: try Self.duration("180d")),
            Rule(id: "ibm-below-80", symbols: ["IBM"], condition: .below(try Self.decimal("80")), rearm: try Self.decimal("5")),
        ]
        let (alerts, summary) = try Self.backtest(rules, data: "stocks-monthly-2000-2010.csv")
        let expected = try Self.golden("monthly.expected")
        #expect(expected.count == 61)
        #expect(alerts == expected)
        #expect(summary.rows == 560)
    }

    /// Replaying the same data gives the same alert ids: receivers can deduplicate.
    @Test func alertIDsAreStableAcrossRuns() throws {
        let (series, _) = PriceSeriesFile.read(path: RepositoryFiles.path("demo/data/aapl-1m-2024-10-02.csv"))
        let rules = try Self.demoRules()
        var first: [String] = [], second: [String] = []
        _ = Backtester.run(rules: rules, series: try #require(series)) { first.append($0.id) }
        _ = Backtester.run(rules: rules, series: try #require(series)) { second.append($0.id) }
        #expect(first == second)
        #expect(Set(first).count == first.count)
    }
}
