import Foundation
import PriceWatchConfig
import PriceWatchCore
import Testing

/// Event rules (`[[rule]]` with `event`, docs/events.md): read beside price rules, kept apart
/// from them, and every mistake a diagnostic at its line.
@Suite struct EventRuleConfigTests {
    static func run(_ rules: String, main: String = GoldenCase.main) throws -> (rendered: [String], configuration: Configuration?) {
        let fixture = try ConfigFixture(["pricewatch.toml": main, "quotes.csv": GoldenCase.csv, "rules.d/a.toml": rules,
                                         "portfolios.d/retirement.toml": PortfolioRuleConfigTests.portfolio])
        defer { fixture.remove() }
        _ = chmod(fixture.path("portfolios.d/retirement.toml"), 0o640)
        let result = fixture.load([:])
        return (fixture.render(result.diagnostics), result.configuration)
    }

    @Test func newsRulesAreKeptApartFromPriceRules() throws {
        let rules = GoldenCase.rule("id = \"price\"\nsymbol = \"MSFT\"\nabove = 1")
            + GoldenCase.rule("id = \"nvda-news\"\nsymbols = [\"NVDA\", \"AAPL\"]\nevent = \"news\"\nmatch = [\"guidance\", \"Price Target\"]")
            + GoldenCase.rule("id = \"holdings-news\"\nportfolio = \"retirement\"\nevent = \"news\"\nenabled = false")
        let (rendered, configuration) = try Self.run(rules)
        #expect(rendered == [])
        let loaded = try #require(configuration)
        #expect(loaded.rules.map(\.id) == ["price"])
        #expect(loaded.eventRules.map(\.id) == ["nvda-news", "holdings-news"])
        #expect(loaded.eventRules.map(\.symbols) == [["NVDA", "AAPL"], ["AAPL"]])
        #expect(loaded.eventRules.map(\.notify) == [["console"], ["console"]])
        #expect(loaded.eventRules.first?.match.terms == ["guidance", "Price Target"])
        #expect(loaded.eventRules.last?.portfolio == "retirement")
        #expect(loaded.newsRules.map(\.id) == ["nvda-news"])
        // Event rules' symbols are not polled for prices.
        #expect(loaded.symbols(for: "demo") == ["MSFT"])
        #expect(loaded.news == NewsSettings())
        #expect(ConfigurationSummary.line(loaded) == "1 rule on 1 symbol, 1 provider, 1 sink, 2 event rules")
    }

    /// The shipped sample (`rules.d/50-news.toml.sample`, over the sample portfolio) loads as
    /// its comments say once copied.
    @Test func theShippedSampleLoads() throws {
        let root = ExampleConfigurationTests.packageRoot + "/etc/pricewatch/"
        let rules = try String(contentsOfFile: root + "rules.d/50-news.toml.sample", encoding: .utf8)
        let (rendered, configuration) = try Self.run(GoldenCase.rule("id = \"price\"\nsymbol = \"MSFT\"\nabove = 1") + rules)
        #expect(rendered == [])
        #expect(configuration?.newsRules.map(\.id) == ["nvda-aapl-news", "retirement-news"])
        #expect(configuration?.newsRules.last?.symbols == ["AAPL"])
    }

    @Test func everyMistakeIsADiagnosticAtItsLine() throws {
        let rules = GoldenCase.rule("id = \"a\"\nsymbol = \"NVDA\"\nevent = \"earning\"")
            + GoldenCase.rule("id = \"b\"\nsymbol = \"NVDA\"\nevent = \"news\"\nbefore = \"1d\"")
            + GoldenCase.rule("id = \"c\"\nsymbol = \"NVDA\"\nevent = \"earnings\"\nmatch = [\"x\"]")
            + GoldenCase.rule("id = \"d\"\nportfolio = \"pension\"\nevent = \"news\"")
            + GoldenCase.rule("id = \"e\"\nsymbol = \"NVDA\"\nevent = \"news\"\nabove = 200")
            + GoldenCase.rule("id = \"f\"\nsymbol = \"NVDA\"\nabove = 200\nmatch = [\"x\"]")
            + GoldenCase.rule("id = \"g\"\nsymbol = \"NVDA\"\nevent = \"news\"\nmatch = []")
            + GoldenCase.rule("id = \"h\"\nevent = \"news\"")
            + GoldenCase.rule("id = \"i\"\nsymbol = \"NVDA\"\nevent = \"news\"\ntimeframe = \"1d\"")
        let (rendered, configuration) = try Self.run(rules)
        #expect(configuration == nil)
        #expect(rendered == [
            "$DIR/rules.d/a.toml:4:1: error: rule 'a': event: expected one of 'earnings', 'ex_dividend', 'dividend_payment', "
                + "'split' or 'news', found \"earning\"",
            "$DIR/rules.d/a.toml:9:1: error: rule 'b': before: 'before' applies to calendar events ('earnings', 'ex_dividend', "
                + "'dividend_payment' and 'split'); news is sent when the headline appears",
            "$DIR/rules.d/a.toml:14:1: error: rule 'c': match: 'match' applies only to event = \"news\" (words a headline must "
                + "contain), not to 'earnings'",
            "$DIR/rules.d/a.toml:17:1: error: rule 'd': portfolio: no portfolio 'pension' in portfolios.d; portfolios: retirement",
            "$DIR/rules.d/a.toml:23:1: error: rule 'e': 'above': an event rule has no price condition: it notifies when the event "
                + "comes (event = \"news\")",
            "$DIR/rules.d/a.toml:28:1: error: rule 'f': 'match' applies only to event rules (with 'event', see docs/events.md)",
            "$DIR/rules.d/a.toml:33:1: error: rule 'g': match: expected at least one word, found an empty array (leave 'match' out "
                + "to get every headline)",
            "$DIR/rules.d/a.toml:34:1: error: rule 'h': missing required key 'symbol' or 'symbols'",
            "$DIR/rules.d/a.toml:41:1: error: rule 'i': 'timeframe': it does not apply to event rules (event = \"news\")",
        ], "\(rendered.joined(separator: "\n"))")
    }

    @Test func calendarRulesAreReadAndSplitsNeedANasdaqProvider() throws {
        let (rendered, configuration) = try Self.run(GoldenCase.rule("id = \"nvda\"\nsymbol = \"NVDA\"\nevent = \"earnings\"\nbefore = \"1d\"")
            + GoldenCase.rule("id = \"div\"\nportfolio = \"retirement\"\nevent = \"ex_dividend\""))
        #expect(rendered == ["$DIR/pricewatch.toml:1:1: warning: providers.demo: not used by any rule"])
        #expect(configuration?.eventRules.map(\.event) == [.earnings, .exDividend])
        #expect(configuration?.eventRules.first?.before == RuleDuration(seconds: 86_400))
        let (split, none) = try Self.run(GoldenCase.rule("id = \"s\"\nsymbol = \"NVDA\"\nevent = \"split\""))
        #expect(none == nil)
        #expect(split.count == 1 && split[0].contains("rule 's': event: 'split' is read from Nasdaq's splits calendar, and the main "
                                                      + "file has no provider of type \"nasdaq\""), "\(split)")
        // With one, the split rule is read, and the provider is not "unused": it is a calendar.
        let (accepted, withNasdaq) = try Self.run(GoldenCase.rule("id = \"s\"\nsymbol = \"NVDA\"\nevent = \"split\""),
                                                  main: GoldenCase.main + "\n[providers.calendars]\ntype = \"nasdaq\"\n")
        #expect(accepted == ["$DIR/pricewatch.toml:1:1: warning: providers.demo: not used by any rule"], "\(accepted)")
        #expect(withNasdaq?.eventRules.map(\.event) == [.split])
    }

    @Test func theNewsTableSetsTheFeedAndItsInterval() throws {
        let rule = GoldenCase.rule("id = \"n\"\nsymbol = \"NVDA\"\nevent = \"news\"")
        let (rendered, configuration) = try Self.run(rule, main: GoldenCase.main + "\n[news]\ninterval = \"5m\"\nbase_url = \"http://127.0.0.1:9/feeds\"\n")
        #expect(rendered == ["$DIR/pricewatch.toml:1:1: warning: providers.demo: not used by any rule"])
        #expect(configuration?.news == NewsSettings(interval: RuleDuration(seconds: 300)!, baseURL: "http://127.0.0.1:9/feeds"))

        let (wrong, none) = try Self.run(rule, main: GoldenCase.main + "\n[news]\ninterval = \"10s\"\nbase_url = \"ftp://x\"\nevery = 1\n")
        #expect(none == nil)
        #expect(wrong == [
            "$DIR/pricewatch.toml:1:1: warning: providers.demo: not used by any rule",
            "$DIR/pricewatch.toml:8:1: error: news.interval: expected at least 1m between reads of a feed, found 10s",
            "$DIR/pricewatch.toml:9:1: error: news.base_url: expected an http:// or https:// URL, found \"ftp://x\"",
            "$DIR/pricewatch.toml:10:1: error: unknown key 'every' in news (expected one of: interval, base_url)",
        ], "\(wrong.joined(separator: "\n"))")
    }
}
