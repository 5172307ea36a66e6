import Foundation
import Testing
import PriceWatchConfig
import PriceWatchCore

/// What a valid configuration loads to: exact values, defaults, resolution, paths.
@Suite struct LoadingTests {
    static let main = GoldenCase.main

    private func load(main: String = LoadingTests.main, rules: [String: String],
                      environment: [String: String] = [:],
                      extra: [String: String] = [:]) throws -> (Configuration?, [String], ConfigFixture) {
        var files = extra
        files["pricewatch.toml"] = main
        files["quotes.csv"] = files["quotes.csv"] ?? GoldenCase.csv
        for (name, text) in rules { files["rules.d/" + name] = text }
        let fixture = try ConfigFixture(files)
        let (configuration, diagnostics) = fixture.load(environment)
        return (configuration, fixture.render(diagnostics), fixture)
    }

    @Test func decimalsAreExact() throws {
        let (configuration, diagnostics, fixture) = try load(rules: ["a.toml": """
            [[rule]]
            id = "a"
            symbol = "AAPL"
            above = 3.135

            [[rule]]
            id = "b"
            symbol = "AAPL"
            below = 1_000.000_000_01

            [[rule]]
            id = "c"
            symbol = "AAPL"
            rise = 0.1
            rearm = 0.09999999

            [[rule]]
            id = "d"
            symbol = "AAPL"
            crosses = 200   # an integer
            """])
        defer { fixture.remove() }
        #expect(diagnostics == [])
        let rules = try #require(configuration?.rules)
        #expect(rules.map(\.condition) == [
            .above(ExactDecimal(scaled: 313_500_000)),
            .below(ExactDecimal(scaled: 100_000_000_001)),
            .rise(ExactDecimal(scaled: 10_000_000)),
            .crosses(ExactDecimal(scaled: 20_000_000_000)),
        ])
        #expect(rules[2].rearm == ExactDecimal(scaled: 9_999_999))
    }

    @Test func defaultsAreFilledIn() throws {
        let (configuration, diagnostics, fixture) = try load(rules: ["a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nfall = 2")])
        defer { fixture.remove() }
        #expect(diagnostics == [])
        let loaded = try #require(configuration)
        #expect(loaded.mainFile == fixture.path("pricewatch.toml"))
        #expect(loaded.statePath == "/var/lib/pricewatch/pricewatch.db")
        #expect(loaded.interval == RuleDuration(seconds: 60))
        #expect(loaded.retention == RuleDuration(seconds: 7 * 86_400))
        #expect(loaded.providers == [
            ProviderConfiguration(name: "demo", type: "replay", interval: try #require(RuleDuration(seconds: 60)),
                                  file: fixture.path("quotes.csv"),
                                  options: AdapterOptions(["file": .path(fixture.path("quotes.csv"))])),
        ])
        #expect(loaded.sinks == [SinkConfiguration(name: "console", type: "stdout", format: "text",
                                                   options: AdapterOptions(["format": .string("text")]))])
        #expect(loaded.rules == [
            Rule(id: "x", symbols: ["AAPL"], provider: "demo", condition: .fall(ExactDecimal(scaled: 200_000_000)),
                 baseline: .previousClose, rearm: .zero, cooldown: nil, once: false, expires: nil, enabled: true,
                 notify: ["console"], message: nil),
        ])
    }

    @Test func everyRuleOptionIsRead() throws {
        let (configuration, diagnostics, fixture) = try load(rules: ["a.toml": """
            [[rule]]
            id = "full.rule-1"
            symbols = ["AAPL", "BTC-USD"]
            provider = "demo"
            move = 2.5
            from = "1h30m"
            rearm = 0.5
            cooldown = "30m"
            once = true
            expires = 2027-06-30T09:30:00-04:00
            enabled = false
            notify = ["console"]
            message = "{{symbol}} moved {{change}}%"

            [[rule]]
            id = "date-expiry"
            symbol = "AAPL"
            rise = 1
            from = "previous_close"
            expires = 2027-06-30
            """])
        defer { fixture.remove() }
        #expect(diagnostics == [])
        let rules = try #require(configuration?.rules)
        #expect(rules.count == 2)
        let rule = rules[0]
        #expect(rule.id == "full.rule-1")
        #expect(rule.symbols == ["AAPL", "BTC-USD"])
        #expect(rule.condition == .move(ExactDecimal(scaled: 250_000_000)))
        #expect(rule.baseline == .window(try #require(RuleDuration(seconds: 5400))))
        #expect(rule.rearm == ExactDecimal(scaled: 50_000_000))
        #expect(rule.cooldown == RuleDuration(seconds: 1800))
        #expect(rule.once)
        #expect(rule.expires == Timestamp(year: 2027, month: 6, day: 30, hour: 13, minute: 30))
        #expect(!rule.enabled)
        #expect(rule.notify == ["console"])
        #expect(rule.message == (try MessageTemplate(parsing: "{{symbol}} moved {{change}}%")))
        #expect(rules[1].baseline == .previousClose)
        #expect(rules[1].expires == Timestamp(year: 2027, month: 6, day: 30))
    }

    @Test func providerAndNotifyResolution() throws {
        let main = """
            provider = "second"
            notify = ["quiet"]
            interval = "30s"

            [providers.first]
            type = "replay"
            file = "quotes.csv"
            interval = "5m"
            fallback = ["second"]

            [providers.second]
            type = "replay"
            file = "quotes.csv"

            [sinks.quiet]
            type = "stdout"

            [sinks.loud]
            type = "stdout"
            format = "json"
            """
        let (configuration, diagnostics, fixture) = try load(main: main, rules: ["a.toml": """
            [[rule]]
            id = "defaults"
            symbol = "AAPL"
            above = 200

            [[rule]]
            id = "explicit"
            symbol = "AAPL"
            provider = "first"
            notify = ["loud", "quiet"]
            above = 200
            """])
        defer { fixture.remove() }
        #expect(diagnostics == [])
        let loaded = try #require(configuration)
        #expect(loaded.rules.map(\.provider) == ["second", "first"])
        #expect(loaded.rules.map(\.notify) == [["quiet"], ["loud", "quiet"]])
        // File order, not alphabetical order.
        #expect(loaded.providers.map(\.name) == ["first", "second"])
        #expect(loaded.sinks.map(\.name) == ["quiet", "loud"])
        #expect(loaded.providers.map(\.interval.seconds) == [300, 30])
        #expect(loaded.providers[0].fallback == ["second"])
        #expect(loaded.sinks.map(\.format) == ["text", "json"])
    }

    @Test func everySinkIsTheDefaultNotify() throws {
        let main = GoldenCase.main + "\n\n[sinks.json]\ntype = \"stdout\"\nformat = \"json\"\n"
        let (configuration, diagnostics, fixture) = try load(main: main, rules: ["a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 1")])
        defer { fixture.remove() }
        #expect(diagnostics == [])
        #expect(configuration?.rules.first?.notify == ["console", "json"])
    }

    @Test func unusedProvidersAndSinksAreWarnings() throws {
        let main = GoldenCase.main + "\n\n[providers.spare]\ntype = \"replay\"\nfile = \"quotes.csv\"\n\n[sinks.json]\ntype = \"stdout\"\n"
        let (configuration, diagnostics, fixture) = try load(main: main, rules: ["a.toml": GoldenCase.rule(
            "id = \"x\"\nsymbol = \"AAPL\"\nprovider = \"demo\"\nnotify = [\"console\"]\nabove = 1")])
        defer { fixture.remove() }
        #expect(configuration != nil)
        #expect(diagnostics == [
            "$DIR/pricewatch.toml:8:1: warning: providers.spare: not used by any rule",
            "$DIR/pricewatch.toml:12:1: warning: sinks.json: not used by any rule",
        ])
    }

    @Test func relativePathsAreMadeAbsolute() throws {
        let main = """
            state = "var/state.db"
            rules = "conf/../my-rules"

            [providers.demo]
            type = "replay"
            file = "./data/../data/quotes.csv"

            [sinks.console]
            type = "stdout"
            """
        let fixture = try ConfigFixture([
            "pricewatch.toml": main,
            "data/quotes.csv": GoldenCase.csv,
            "my-rules/only.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 1"),
        ])
        defer { fixture.remove() }
        let (configuration, diagnostics) = fixture.load()
        #expect(diagnostics.isEmpty)
        let loaded = try #require(configuration)
        #expect(loaded.statePath == fixture.path("var/state.db"))
        #expect(loaded.providers.first?.file == fixture.path("data/quotes.csv"))
        #expect(loaded.rules.map(\.id) == ["x"])
    }

    @Test func rulesMayBeASingleFile() throws {
        let fixture = try ConfigFixture([
            "pricewatch.toml": "rules = \"alerts.toml\"\n" + GoldenCase.main,
            "quotes.csv": GoldenCase.csv,
            "alerts.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 1\nrearm = 3.5"),
        ])
        defer { fixture.remove() }
        let (configuration, diagnostics) = fixture.load()
        #expect(diagnostics.isEmpty)
        #expect(configuration?.rules.map(\.id) == ["x"])
    }

    @Test func ruleFilesAreReadInLexicalOrderAndOthersAreSkipped() throws {
        let fixture = try ConfigFixture([
            "pricewatch.toml": GoldenCase.main,
            "quotes.csv": GoldenCase.csv,
            "rules.d/b.toml": GoldenCase.rule("id = \"b\"\nsymbol = \"AAPL\"\nabove = 1"),
            "rules.d/a.toml": GoldenCase.rule("id = \"a\"\nsymbol = \"AAPL\"\nabove = 1")
                + GoldenCase.rule("id = \"a2\"\nsymbol = \"AAPL\"\nabove = 1"),
            "rules.d/B.toml": GoldenCase.rule("id = \"upper\"\nsymbol = \"AAPL\"\nabove = 1"),
            "rules.d/notes.txt": "not a rule file",
            "rules.d/.draft.toml": "this is = not [ toml",
            "rules.d/sub.toml/ignored.toml": "also = not [ read",
        ])
        defer { fixture.remove() }
        let (configuration, diagnostics) = fixture.load()
        #expect(diagnostics.isEmpty)
        #expect(configuration?.rules.map(\.id) == ["upper", "a", "a2", "b"])
    }

    @Test func retentionShorterThanTheLongestWindowIsAWarning() throws {
        let (configuration, diagnostics, fixture) = try load(main: "retention = \"1d\"\n" + GoldenCase.main, rules: ["a.toml": """
            [[rule]]
            id = "short"
            symbol = "AAPL"
            rise = 1
            from = "1h"

            [[rule]]
            id = "month"
            symbol = "AAPL"
            fall = 10
            from = "30d"
            """])
        defer { fixture.remove() }
        #expect(diagnostics == [
            "$DIR/pricewatch.toml:1:1: warning: retention (1d) is shorter than the longest rule window "
                + "(from = \"30d\" in rule 'month'); keeping 30d of history",
        ])
        #expect(configuration?.retention == RuleDuration(seconds: 30 * 86_400))
    }

    @Test func defaultRetentionShorterThanAWindowIsAWarningWithoutPosition() throws {
        let (configuration, diagnostics, fixture) = try load(rules: ["a.toml": GoldenCase.rule(
            "id = \"month\"\nsymbol = \"AAPL\"\nmove = 5\nfrom = \"14d\"")])
        defer { fixture.remove() }
        #expect(diagnostics == [
            "$DIR/pricewatch.toml: warning: retention (default 7d) is shorter than the longest rule window "
                + "(from = \"14d\" in rule 'month'); keeping 14d of history",
        ])
        #expect(configuration?.retention == RuleDuration(seconds: 14 * 86_400))
    }

    @Test func noRulesIsAWarning() throws {
        let (configuration, diagnostics, fixture) = try load(rules: ["empty.toml": "# nothing yet\n"])
        defer { fixture.remove() }
        #expect(diagnostics == ["$DIR/pricewatch.toml: warning: no rules are defined in '$DIR/rules.d'; nothing will be watched"])
        #expect(configuration?.rules == [])
    }

    @Test func aMissingDefaultRulesDirectoryIsAWarning() throws {
        let fixture = try ConfigFixture(["pricewatch.toml": GoldenCase.main, "quotes.csv": GoldenCase.csv])
        defer { fixture.remove() }
        let (configuration, diagnostics) = fixture.load()
        #expect(fixture.render(diagnostics) == [
            "$DIR/pricewatch.toml: warning: no rules are defined in '$DIR/rules.d'; nothing will be watched",
        ])
        #expect(configuration != nil)
    }

    @Test func secretsAreResolved() throws {
        let main = """
            [providers.a]
            type = "replay"
            file = "quotes.csv"
            api_key = { file = "secrets/a.key" }

            [providers.b]
            type = "replay"
            file = "quotes.csv"
            api_key = { credential = "b-key" }

            [providers.c]
            type = "replay"
            file = "quotes.csv"
            api_key.env = "C_KEY"

            [sinks.console]
            type = "stdout"
            """
        let fixture = try ConfigFixture([
            "pricewatch.toml": main,
            "quotes.csv": GoldenCase.csv,
            "secrets/a.key": "key-a\n",
            "creds/b-key": "key-b\r\n",
            "rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nprovider = \"a\"\nabove = 1")
                + GoldenCase.rule("id = \"y\"\nsymbol = \"AAPL\"\nprovider = \"b\"\nabove = 1")
                + GoldenCase.rule("id = \"z\"\nsymbol = \"AAPL\"\nprovider = \"c\"\nabove = 1"),
        ])
        defer { fixture.remove() }
        // Owner-only, as a secret file should be (a looser one gets a warning).
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: fixture.path("secrets/a.key"))
        let (configuration, diagnostics) = fixture.load(["CREDENTIALS_DIRECTORY": fixture.path("creds"), "C_KEY": "key-c"])
        #expect(diagnostics.isEmpty)
        let keys = try #require(configuration?.providers.map(\.apiKey))
        #expect(keys.map { $0?.value } == ["key-a", "key-b", "key-c"])
        #expect(keys.map { $0?.origin } == ["file \(fixture.path("secrets/a.key"))", "credential b-key", "env C_KEY"])
        #expect(keys.map { $0?.description } == keys.map { "<secret from \($0?.origin ?? "")>" })
    }
}
