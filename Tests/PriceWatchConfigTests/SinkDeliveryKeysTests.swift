import PriceWatchConfig
import PriceWatchCore
import Testing

/// The delivery keys every sink accepts: `max_age`, `group_wait`, `concurrency`; and the
/// state-only reading `pricewatch alerts` uses.
@Suite struct SinkDeliveryKeysTests {
    static func fixture(_ sinkKeys: String) throws -> ConfigFixture {
        try ConfigFixture([
            "pricewatch.toml": """
                [providers.replay]
                type = "replay"
                file = "prices.csv"
                [sinks.out]
                type = "stdout"
                \(sinkKeys)
                """,
            "prices.csv": "symbol,time,price\nAAPL,2024-10-02,225.70\n",
            "rules.d/a.toml": "[[rule]]\nid = \"a\"\nsymbol = \"AAPL\"\nabove = 200\n",
        ])
    }

    @Test func defaultsAreADayOfRetriesNoGroupingAndFourInFlight() throws {
        let fixture = try Self.fixture("")
        defer { fixture.remove() }
        let sink = try #require(fixture.load().configuration?.sink(named: "out"))
        #expect(sink.maxAge == RuleDuration(seconds: 86_400))
        #expect(sink.groupWait == nil)
        #expect(sink.concurrency == 4)
    }

    @Test func writtenValuesAreRead() throws {
        let fixture = try Self.fixture("max_age = \"2h\"\ngroup_wait = \"30s\"\nconcurrency = 8")
        defer { fixture.remove() }
        let sink = try #require(fixture.load().configuration?.sink(named: "out"))
        #expect(sink.maxAge == RuleDuration(seconds: 7_200))
        #expect(sink.groupWait == RuleDuration(seconds: 30))
        #expect(sink.concurrency == 8)
    }

    @Test(arguments: [
        ("group_wait = \"1d\"\nmax_age = \"1h\"",
         "$DIR/pricewatch.toml:6:1: error: sinks.out.group_wait: 'group_wait' (1d) must be shorter than 'max_age' (1h)"),
        ("concurrency = 0", "$DIR/pricewatch.toml:6:1: error: sinks.out.concurrency: expected a positive integer, found 0"),
        ("concurrency = 65", "$DIR/pricewatch.toml:6:1: error: sinks.out.concurrency: expected at most 64 deliveries in flight, found 65"),
        ("max_age = 3", "$DIR/pricewatch.toml:6:1: error: sinks.out.max_age: expected a duration such as \"30s\", \"5m\", \"1h30m\" or \"7d\", found an integer"),
    ])
    func mistakesAreReportedAtTheirKey(keys: String, expected: String) throws {
        let fixture = try Self.fixture(keys)
        defer { fixture.remove() }
        #expect(fixture.rendered() == [expected])
    }

    @Test func theStateLocationIsReadWithoutSecretsOrRules() throws {
        let fixture = try ConfigFixture([
            "pricewatch.toml": """
                state = "data/pw.db"
                rules = "missing.d"
                [sinks.mail]
                type = "email"
                password = { credential = "smtp" }
                [sinks.out]
                type = "stdout"
                """,
        ])
        defer { fixture.remove() }
        let (location, diagnostics) = ConfigurationLoader.stateLocation(mainFile: fixture.path("pricewatch.toml"))
        #expect(diagnostics.isEmpty)
        #expect(location == StateLocation(statePath: fixture.path("data/pw.db"),
                                          sinkIdentities: ["mail": "email/mail", "out": "stdout/out"]))
        let defaulted = try ConfigFixture(["pricewatch.toml": "interval = \"1m\"\n"])
        defer { defaulted.remove() }
        #expect(ConfigurationLoader.stateLocation(mainFile: defaulted.path("pricewatch.toml")).location?.statePath
                == "/var/lib/pricewatch/pricewatch.db")
    }
}
