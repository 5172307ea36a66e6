import PriceWatchConfig
import PriceWatchCore
import Testing

/// A sink's `quiet` and `quiet_timezone`, and a rule's `urgent`: read, defaulted (UTC, not
/// urgent), and refused at their line when wrong.
@Suite struct QuietHoursConfigTests {
    @Test func quietHoursAndUrgentAreRead() throws {
        let main = GoldenCase.main + "\nquiet = \"22:00-07:00\"\nquiet_timezone = \"Europe/Berlin\"\n\n[sinks.pager]\ntype = \"stdout\"\nquiet = \"23:30-06:00\"\n"
        let files = ["rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 1\nurgent = true")
            + GoldenCase.rule("id = \"y\"\nsymbol = \"AAPL\"\nbelow = 1")]
        let (rendered, configuration, fixture) = try GoldenCase(name: "quiet", main: main, files: files, expected: []).run()
        defer { fixture.remove() }
        #expect(rendered == [])
        let loaded = try #require(configuration)
        #expect(loaded.sinks.map { $0.quietHours?.description } == ["22:00-07:00 Europe/Berlin", "23:30-06:00 UTC"])
        #expect(loaded.rules.map(\.urgent) == [true, false])
    }

    @Test func mistakesAreReportedAtTheirLine() throws {
        let main = GoldenCase.main + "\nquiet = \"22-07\"\nquiet_timezone = \"Mars/Olympus\"\n\n[sinks.pager]\ntype = \"stdout\"\nquiet_timezone = \"UTC\"\n"
        let files = ["rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 1\nurgent = \"yes\"")]
        let (rendered, configuration, fixture) = try GoldenCase(name: "bad quiet", main: main, files: files, expected: []).run()
        defer { fixture.remove() }
        #expect(configuration == nil)
        #expect(rendered == [
            #"$DIR/pricewatch.toml:7:1: error: sinks.console.quiet: expected quiet hours such as "22:00-07:00" (HH:MM-HH:MM), found "22-07""#,
            #"$DIR/pricewatch.toml:8:1: error: sinks.console.quiet_timezone: unknown time zone "Mars/Olympus" (expected an IANA name from the system's tzdata, such as Europe/Berlin or America/New_York)"#,
            #"$DIR/pricewatch.toml:12:1: error: sinks.pager.quiet_timezone: 'quiet_timezone' without 'quiet': add quiet = "22:00-07:00" or remove it"#,
            #"$DIR/rules.d/a.toml:5:1: error: rule 'x': urgent: expected a boolean (true or false), found a string"#,
        ], "\(rendered)")
    }
}
