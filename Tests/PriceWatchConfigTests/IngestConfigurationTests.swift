import PriceWatchConfig
import PriceWatchCore
import Testing

/// `[ingest.tradingview]`: read into ``IngestRouteSettings`` with its defaults, and every
/// mistake (an unknown sink, route or key) a diagnostic at its line.
@Suite struct IngestConfigurationTests {
    static let rules = ["rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 1")]

    @Test func aRouteIsReadWithItsDefaults() throws {
        let main = GoldenCase.main + """


            [ingest.tradingview]
            notify = ["console"]
            """
        let (rendered, configuration, fixture) = try GoldenCase(name: "ingest", main: main, files: Self.rules, expected: []).run()
        defer { fixture.remove() }
        #expect(rendered == [])
        let route = try #require(configuration?.ingestRoute(named: "tradingview"))
        #expect(route.notify == ["console"])
        #expect(route.title == "TradingView alert")
    }

    @Test func aRouteWithoutNotifyGoesWhereRulesGo() throws {
        let main = GoldenCase.main + """


            [ingest.tradingview]
            title = "From TV"
            """
        let (rendered, configuration, fixture) = try GoldenCase(name: "ingest default", main: main, files: Self.rules, expected: []).run()
        defer { fixture.remove() }
        #expect(rendered == [])
        let route = try #require(configuration?.ingestRoute(named: "tradingview"))
        #expect(route.notify == ["console"] && route.title == "From TV")
    }

    @Test func everyMistakeIsADiagnosticAtItsLine() throws {
        let main = GoldenCase.main + """


            [ingest.tradingview]
            notify = ["console", "phone"]
            colour = "blue"

            [ingest.other]
            notify = ["console"]
            """
        let (rendered, configuration, fixture) = try GoldenCase(name: "bad ingest", main: main, files: Self.rules, expected: []).run()
        defer { fixture.remove() }
        #expect(configuration == nil)
        #expect(rendered == [
            #"$DIR/pricewatch.toml:9:22: error: ingest.tradingview.notify: unknown sink 'phone' (sinks: console)"#,
            #"$DIR/pricewatch.toml:10:1: error: unknown key 'colour' in ingest.tradingview (expected one of: notify, title)"#,
            #"$DIR/pricewatch.toml:12:1: error: ingest: expected a route among tradingview, found "other""#,
        ], "\(rendered)")
    }
}
