import Testing
import PriceWatchConfig
import PriceWatchCore

/// The polling-policy and data-health keys: main `stale_after` and `failure_warning_after`,
/// provider `requests_per_minute`: defaults, values, and exact diagnostics.
@Suite struct PollingKeysTests {
    static let rules = ["rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 1")]

    static func main(root: String = "", provider: String = "") -> String {
        """
        \(root)
        [providers.demo]
        type = "replay"
        file = "quotes.csv"
        \(provider)

        [sinks.console]
        type = "stdout"
        """
    }

    @Test func defaultsAreFifteenMinutesThreeFailuresAndTheServicesOwnRate() throws {
        let (rendered, configuration, fixture) = try GoldenCase(name: "defaults", main: Self.main(), files: Self.rules, expected: []).run()
        defer { fixture.remove() }
        #expect(rendered == [])
        let loaded = try #require(configuration)
        #expect(loaded.staleAfter == RuleDuration(seconds: 900))
        #expect(loaded.failureWarningAfter == 3)
        #expect(loaded.providers.map(\.requestsPerMinute) == [nil])
    }

    @Test func valuesAreRead() throws {
        let main = Self.main(root: "stale_after = \"1h30m\"\nfailure_warning_after = 5", provider: "requests_per_minute = 0.5")
        let (rendered, configuration, fixture) = try GoldenCase(name: "values", main: main, files: Self.rules, expected: []).run()
        defer { fixture.remove() }
        #expect(rendered == [])
        let loaded = try #require(configuration)
        #expect(loaded.staleAfter == RuleDuration(seconds: 5_400))
        #expect(loaded.failureWarningAfter == 5)
        #expect(loaded.providers.map(\.requestsPerMinute) == [0.5])
    }

    @Test func anIntegerRateIsAccepted() throws {
        let (rendered, configuration, fixture) = try GoldenCase(name: "integer rate", main: Self.main(provider: "requests_per_minute = 60"),
                                                                files: Self.rules, expected: []).run()
        defer { fixture.remove() }
        #expect(rendered == [])
        #expect(configuration?.providers.map(\.requestsPerMinute) == [60])
    }

    static let mistakes: [GoldenCase] = [
        GoldenCase(name: "stale_after not a duration", main: main(root: "stale_after = 15"), files: rules, expected: [
            "$DIR/pricewatch.toml:1:1: error: stale_after: expected a duration such as \"30s\", \"5m\", \"1h30m\" or \"7d\", found an integer",
        ]),
        GoldenCase(name: "stale_after with a bad unit", main: main(root: "stale_after = \"15 minutes\""), files: rules, expected: [
            "$DIR/pricewatch.toml:1:1: error: stale_after: expected a duration such as \"30s\", \"5m\", \"1h30m\" or \"7d\", found \"15 minutes\" (unknown unit ' '; units are s, m, h, d)",
        ]),
        GoldenCase(name: "failure_warning_after zero", main: main(root: "failure_warning_after = 0"), files: rules, expected: [
            "$DIR/pricewatch.toml:1:1: error: failure_warning_after: expected a positive integer, found 0",
        ]),
        GoldenCase(name: "failure_warning_after a string", main: main(root: "failure_warning_after = \"3\""), files: rules, expected: [
            "$DIR/pricewatch.toml:1:1: error: failure_warning_after: expected a positive integer, found a string",
        ]),
        GoldenCase(name: "requests_per_minute zero", main: main(provider: "requests_per_minute = 0"), files: rules, expected: [
            "$DIR/pricewatch.toml:5:1: error: providers.demo.requests_per_minute: expected a number greater than 0, found 0",
        ]),
        GoldenCase(name: "requests_per_minute negative", main: main(provider: "requests_per_minute = -2.5"), files: rules, expected: [
            "$DIR/pricewatch.toml:5:1: error: providers.demo.requests_per_minute: expected a number greater than 0, found -2.5",
        ]),
        GoldenCase(name: "requests_per_minute a string", main: main(provider: "requests_per_minute = \"60/min\""), files: rules, expected: [
            "$DIR/pricewatch.toml:5:1: error: providers.demo.requests_per_minute: expected a number, found a string",
        ]),
        GoldenCase(name: "requests_per_minute misspelt", main: main(provider: "request_per_minute = 60"), files: rules, expected: [
            "$DIR/pricewatch.toml:5:1: error: unknown key 'request_per_minute' in providers.demo; did you mean 'requests_per_minute'?",
        ]),
    ]

    @Test(arguments: mistakes) func mistakesAreReportedExactly(_ golden: GoldenCase) throws {
        let (rendered, configuration, fixture) = try golden.run()
        defer { fixture.remove() }
        #expect(rendered == golden.expected)
        #expect(configuration == nil)
    }
}
