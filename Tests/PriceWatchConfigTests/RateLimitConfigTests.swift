import PriceWatchConfig
import PriceWatchCore
import Testing

/// A sink's `rate_limit`: read, lifted with `"off"`, and refused at its line when it is not
/// a rate.
@Suite struct RateLimitConfigTests {
    @Test func ratesAreReadAndOffLiftsThem() throws {
        let main = GoldenCase.main + "\nrate_limit = \"30/min\"\n\n[sinks.pager]\ntype = \"stdout\"\nrate_limit = \"off\"\n\n[sinks.plain]\ntype = \"stdout\"\n"
        let files = ["rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 1")]
        let (rendered, configuration, fixture) = try GoldenCase(name: "rate", main: main, files: files, expected: []).run()
        defer { fixture.remove() }
        #expect(rendered == [])
        let loaded = try #require(configuration)
        #expect(loaded.sinks.map { $0.rateLimit?.description } == ["30/min", nil, nil])
        #expect(SinkDeliverySettings(loaded.sinks[0]).rateLimit == DeliveryRateLimit(attempts: 30, windowMilliseconds: 60_000))
    }

    @Test func aRateThatIsNotOneIsReportedAtItsLine() throws {
        let main = GoldenCase.main + "\nrate_limit = \"30 a minute\"\n\n[sinks.pager]\ntype = \"stdout\"\nrate_limit = 30\n"
        let files = ["rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 1")]
        let (rendered, configuration, fixture) = try GoldenCase(name: "bad rate", main: main, files: files, expected: []).run()
        defer { fixture.remove() }
        #expect(configuration == nil)
        #expect(rendered.count == 2, "\(rendered)")
        #expect(rendered.first?.hasPrefix(#"$DIR/pricewatch.toml:7:1: error: sinks.console.rate_limit: expected a rate such as "20/min""#) == true,
                "\(rendered)")
        #expect(rendered.first?.hasSuffix(#"found "30 a minute""#) == true, "\(rendered)")
        #expect(rendered.last?.hasPrefix("$DIR/pricewatch.toml:11:1: error: sinks.pager.rate_limit: expected a rate such as") == true, "\(rendered)")
    }
}
