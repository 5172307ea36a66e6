import Foundation
import Testing
import PriceWatchConfig
import PriceWatchCore

/// Technical rules in `pricewatch check`: every mistake at its line with a suggestion
/// (`docs/rules.md`, "What pricewatch check reports"), and what a valid one reads as.
@Suite struct TechnicalRuleDiagnosticsTests {
    static let rule = GoldenCase.rule
    static let head = "id = \"x\"\nsymbol = \"GOOG\"\n"

    static let cases: [GoldenCase] = [
        GoldenCase(name: "an unknown series", files: [
            "rules.d/a.toml": rule(head + "timeframe = \"1d\"\nof = \"smaa(50)\"\nabove = 100"),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': of: expected a series such as \"price\", \"sma(50)\" or \"rsi(14)\", "
                + "found \"smaa(50)\"; did you mean 'sma'?",
        ]),
        GoldenCase(name: "too many arguments", files: [
            "rules.d/a.toml": rule(head + "timeframe = \"1d\"\nof = \"rsi(14, 3)\"\nbelow = 30"),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': of: rsi takes one length, found 2",
        ]),
        GoldenCase(name: "macd without its three lengths", files: [
            "rules.d/a.toml": rule(head + "timeframe = \"1d\"\nof = \"macd(12,26)\"\ncrosses = 0"),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': of: macd takes three arguments (fast, slow, signal), found 2",
        ]),
        GoldenCase(name: "a length out of range", files: [
            "rules.d/a.toml": rule(head + "timeframe = \"1d\"\nabove = \"highest(0)\""),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': above: highest's length must be between 1 and 5000, found 0",
        ]),
        GoldenCase(name: "a fraction of a bar", files: [
            "rules.d/a.toml": rule(head + "timeframe = \"1d\"\nof = \"sma(2.5)\"\nabove = 1"),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': of: sma's length is a whole number of bars, found 2.5",
        ]),
        GoldenCase(name: "macd's fast length not below its slow one", files: [
            "rules.d/a.toml": rule(head + "timeframe = \"1d\"\nof = \"macd(26,12,9)\"\ncrosses = 0"),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': of: macd's fast length must be shorter than its slow one, found 26 and 12",
        ]),
        GoldenCase(name: "a series without a timeframe", files: [
            "rules.d/a.toml": rule(head + "of = \"sma(50)\"\ncrosses = \"sma(200)\""),
        ], expected: [
            "$DIR/rules.d/a.toml:1:1: error: rule 'x': missing 'timeframe': a rule with 'of' and a series level is evaluated on "
                + "bars; expected one of '1m', '5m', '15m', '30m', '1h', '2h', '4h', '1d' or '1w'",
        ]),
        GoldenCase(name: "an unknown timeframe", files: [
            "rules.d/a.toml": rule(head + "timeframe = \"1D\"\nabove = \"sma(20)\""),
        ], expected: [
            "$DIR/rules.d/a.toml:4:1: error: rule 'x': timeframe: expected one of '1m', '5m', '15m', '30m', '1h', '2h', '4h', "
                + "'1d' or '1w', found \"1D\"; did you mean '1d'?",
        ]),
        GoldenCase(name: "a series level on rise", files: [
            "rules.d/a.toml": rule(head + "timeframe = \"1d\"\nrise = \"sma(20)\""),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': rise: 'rise' is a percent and takes a number, found the series "
                + "\"sma(20)\"; to test a series' percent change, write of = \"sma(20)\" and rise = 2",
        ]),
        GoldenCase(name: "a series' percent change from the previous close", files: [
            "rules.d/a.toml": rule(head + "timeframe = \"1d\"\nof = \"sma(20)\"\nrise = 2"),
        ], expected: [
            "$DIR/rules.d/a.toml:6:1: error: rule 'x': 'rise' of sma(20) needs 'from' as a duration such as \"5d\" (its value "
                + "that long ago); the previous close is a price's base",
        ]),
        GoldenCase(name: "an unknown trigger", files: [
            "rules.d/a.toml": rule(head + "timeframe = \"1h\"\ntrigger = \"bar\"\nabove = \"ema(9)\""),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: error: rule 'x': trigger: expected \"close\" (once per bar, when it closes) or \"tick\" "
                + "(every quote, against the forming bar), found \"bar\"",
        ]),
        GoldenCase(name: "a volume series warns that it stays warming up", files: [
            "rules.d/a.toml": rule(head + "timeframe = \"1d\"\nof = \"volume\"\nabove = \"sma_volume(20)\""),
        ], expected: [
            "$DIR/rules.d/a.toml:5:1: warning: rule 'x': of: volume is defined only on bars whose volume is known, and quotes "
                + "of provider 'demo' (replay) carry no day volume (those of kraken, twelvedata, yahoo do): this rule stays warming up",
        ]),
        GoldenCase(name: "a volume series on a provider whose quotes carry the day's volume",
                   main: "[providers.yahoo]\ntype = \"yahoo\"\n\n[sinks.console]\ntype = \"stdout\"\n", files: [
            "rules.d/a.toml": rule(head + "timeframe = \"1d\"\nof = \"volume\"\nabove = \"sma_volume(20)\""),
        ], expected: []),
    ]

    @Test(arguments: cases)
    func golden(_ golden: GoldenCase) throws {
        try golden.expectDiagnostics()
    }

    @Test func aGoldenCrossReadsAsOneTechnicalRule() throws {
        let golden = GoldenCase(name: "valid", files: [
            "rules.d/a.toml": Self.rule(Self.head + "timeframe = \"1d\"\nof = \"sma( 50 )\"\ncrosses = \"sma(200)\"")
                + Self.rule("id = \"y\"\nsymbol = \"GOOG\"\ntimeframe = \"1d\"\nof = \"macd_hist(12,26,9)\"\nbelow = -0.5\nrearm = 10\ntrigger = \"tick\""),
        ], expected: [])
        let (rendered, configuration, fixture) = try golden.run()
        defer { fixture.remove() }
        #expect(rendered.isEmpty)
        let rules = try #require(configuration?.rules)
        let cross = try #require(rules.first)
        #expect(cross.series == SeriesCondition(timeframe: .oneDay, of: try SeriesSpec(parsing: "sma(50)"),
                                                level: try SeriesSpec(parsing: "sma(200)")))
        #expect(cross.conditionText == "sma(50) crosses sma(200) on 1d bars")
        #expect(cross.series?.warmUpBars == 200)
        let macd = try #require(rules.last)
        #expect(macd.condition == Condition.below(try ExactDecimal(parsing: "-0.5")))
        #expect(macd.series?.trigger == .tick)
        #expect(macd.series?.warmUpBars == 34)
        // The series and timeframe are part of the fingerprint: changing them resets the state.
        var other = cross
        other.series?.level = try SeriesSpec(parsing: "sma(100)")
        #expect(other.fingerprint != cross.fingerprint)
    }

    @Test func everyCatalogedSeriesParsesWithItsParameters() throws {
        for indicator in IndicatorCatalog.all {
            let arguments = indicator.parameters.enumerated().map { index, parameter in
                parameter.isWhole ? String(10 + index * 10) : "2"
            }
            let text = arguments.isEmpty ? indicator.name : "\(indicator.name)(\(arguments.joined(separator: ",")))"
            let spec = try SeriesSpec(parsing: text)
            #expect(spec.description == text)
            #expect(spec.warmUpBars >= 1)
        }
        #expect(Set(IndicatorCatalog.names).count == IndicatorCatalog.all.count, "two indicators share a name")
    }
}
