import PriceWatchConfig
import PriceWatchCore
import Testing

/// `[[digest]]` tables: read into ``DigestSettings`` with their defaults, and every mistake a
/// positioned diagnostic naming the digest and the key.
@Suite struct DigestConfigurationTests {
    static let rules = ["rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 1")]

    @Test func digestsAreReadWithTheirDefaults() throws {
        let main = GoldenCase.main + """


            [[digest]]
            name = "weekly"
            schedule = "weekly mon 08:00 America/New_York"
            top = 3
            markets = ["XNYS", "24/7"]

            [[digest]]
            name = "evening"
            schedule = "daily 18:00 Europe/Berlin"
            period = "week"
            notify = ["console"]
            charts = false

            [[digest]]
            name = "close"
            on_close = "XNYS"
            timezone = "America/New_York"
            """
        let (rendered, configuration, fixture) = try GoldenCase(name: "digests", main: main, files: Self.rules, expected: []).run()
        defer { fixture.remove() }
        #expect(rendered == [])
        let digests = try #require(configuration?.digests)
        #expect(digests.map(\.name) == ["weekly", "evening", "close"])
        #expect(digests[2].schedule == .marketClose(MarketIdentifier("XNYS")) && digests[2].timeZone == "America/New_York")
        #expect(digests[2].period == .day)
        #expect(digests[0].schedule.description == "weekly mon 08:00 America/New_York")
        #expect(digests[0].period == .week, "a weekly schedule covers a week by default")
        #expect(digests[0].topCount == 3 && digests[0].charts && digests[0].notify == ["console"])
        #expect(digests[0].markets == [MarketIdentifier("XNYS"), MarketIdentifier("24/7")])
        #expect(digests[0].timeZone == "America/New_York")
        #expect(digests[1].period == .week && !digests[1].charts && digests[1].topCount == DigestSettings.defaultTopCount)
        #expect(digests[0].notificationID(due: Timestamp(seconds: 100)) == digests[0].notificationID(due: Timestamp(seconds: 100)))
        #expect(digests[0].notificationID(due: Timestamp(seconds: 100)) != digests[0].notificationID(due: Timestamp(seconds: 160)))
    }

    @Test func everyMistakeIsADiagnosticAtItsLine() throws {
        let main = GoldenCase.main + """


            [[digest]]
            name = "weekly"
            schedule = "weekly someday 08:00"
            notify = ["mail"]
            top = 100
            period = "year"
            markets = ["New York"]
            colour = "blue"

            [[digest]]
            name = "weekly"
            schedule = "daily 08:00 Mars/Olympus"

            [[digest]]
            schedule = "daily 08:00"

            [[digest]]
            name = "both"
            schedule = "daily 08:00"
            on_close = "XNYS"
            timezone = "UTC"
            """
        let (rendered, configuration, fixture) = try GoldenCase(name: "bad digests", main: main, files: Self.rules, expected: []).run()
        defer { fixture.remove() }
        #expect(configuration == nil)
        #expect(rendered == [
            #"$DIR/pricewatch.toml:10:1: error: digest 'weekly': schedule: expected a day (mon, tue, wed, thu, fri, sat or sun), found 'someday' (column 8 of "weekly someday 08:00")"#,
            #"$DIR/pricewatch.toml:11:11: error: digest 'weekly': notify: unknown sink 'mail' (sinks: console)"#,
            #"$DIR/pricewatch.toml:12:1: error: digest 'weekly': top: expected at most 25, found 100"#,
            #"$DIR/pricewatch.toml:13:1: error: digest 'weekly': period: expected "day", "week" or "month", found "year""#,
            #"$DIR/pricewatch.toml:14:12: error: digest 'weekly': markets: expected a market code such as "XNYS", "XLON" or "24/7" (2 to 12 letters, digits or '/'), found "New York""#,
            #"$DIR/pricewatch.toml:15:1: error: unknown key 'colour' in digest 'weekly' (expected one of: name, schedule, on_close, timezone, period, notify, top, charts, markets, portfolios, paper)"#,
            #"$DIR/pricewatch.toml:18:1: error: digest 'weekly': name: duplicate digest name; first defined at $DIR/pricewatch.toml:9"#,
            #"$DIR/pricewatch.toml:19:1: error: digest 'weekly': schedule: unknown time zone 'Mars/Olympus' (expected an IANA name from the system's tzdata, such as Europe/Berlin or America/New_York) (column 13 of "daily 08:00 Mars/Olympus")"#,
            #"$DIR/pricewatch.toml:21:1: error: digest #3: missing 'name' (a name such as "weekly")"#,
            #"$DIR/pricewatch.toml:27:1: error: digest 'both': expected one of 'schedule' and 'on_close', found both"#,
            #"$DIR/pricewatch.toml:28:1: error: digest 'both': timezone: 'timezone' goes with 'on_close'; a schedule names its zone itself ("daily 18:00 America/New_York")"#,
        ], "\(rendered)")
    }
}
