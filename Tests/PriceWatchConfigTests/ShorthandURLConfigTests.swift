import Foundation
import PriceWatchApp
import PriceWatchConfig
import PriceWatchCore
import PriceWatchSinks
import Testing

/// A sink written as one Apprise-style URL (`url = "tgram://TOKEN/CHAT"`, no `type`) is the
/// same sink as its long form: the same type and the same options (secrets compared by value),
/// for every scheme; unknown schemes and broken URLs are explained without showing the URL.
@Suite struct ShorthandURLConfigTests {
    static let telegramToken = "7123456789:AAHf3kQz-Lm0Xy_pR8tUvWcD9eJbN4sG2hA"

    private func load(_ sink: String, environment: [String: String] = [:], files: [String: String] = [:]) throws -> (Configuration?, [String]) {
        var all = [
            "pricewatch.toml": """
                [providers.demo]
                type = "replay"
                file = "quotes.csv"

                [sinks.s]
                \(sink)
                """,
            "quotes.csv": GoldenCase.csv,
            "rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200"),
        ]
        for (path, text) in files { all[path] = text }
        let fixture = try ConfigFixture(all)
        defer { fixture.remove() }
        let (configuration, diagnostics) = fixture.load(environment)
        return (configuration, fixture.render(diagnostics))
    }

    /// The options with every secret's origin blanked: the URL's secrets come from the URL,
    /// the long form's from the environment.
    private static func comparable(_ options: AdapterOptions) -> AdapterOptions {
        AdapterOptions(options.values.mapValues { value in
            if case .secret(let secret) = value { return .secret(Secret(value: secret.value, origin: "")) }
            return value
        })
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let url: String
        let long: String
        var environment: [String: String] = [:]
        var testDescription: String { String(url.prefix { $0 != ":" }) + " " + String(url.suffix(12)) }
    }

    static let cases: [Case] = [
        Case(url: "tgram://\(telegramToken)/-1001234567890",
             long: "type = \"telegram\"\ntoken = { env = \"T\" }\nchat = \"-1001234567890\"", environment: ["T": telegramToken]),
        Case(url: "tgram://\(telegramToken)/@price_alerts:12?silent=yes",
             long: "type = \"telegram\"\ntoken = { env = \"T\" }\nchat = \"@price_alerts\"\ntopic = 12\nsilent = true", environment: ["T": telegramToken]),
        Case(url: "tgram://bot\(telegramToken)/42?topic=7",
             long: "type = \"telegram\"\ntoken = { env = \"T\" }\nchat = \"42\"\ntopic = 7", environment: ["T": telegramToken]),
        Case(url: "pover://uQiRzpo4DXghDmr9QzzfQu27cmVRsG@azGDORePK8gMaC0QOYAMyEEuzJnyUi",
             long: "type = \"pushover\"\ntoken = { env = \"P\" }\nuser = \"uQiRzpo4DXghDmr9QzzfQu27cmVRsG\"",
             environment: ["P": "azGDORePK8gMaC0QOYAMyEEuzJnyUi"]),
        Case(url: "pover://uQiRzpo4DXghDmr9QzzfQu27cmVRsG@azGDORePK8gMaC0QOYAMyEEuzJnyUi/phone",
             long: "type = \"pushover\"\ntoken = { env = \"P\" }\nuser = \"uQiRzpo4DXghDmr9QzzfQu27cmVRsG\"\ndevice = \"phone\"",
             environment: ["P": "azGDORePK8gMaC0QOYAMyEEuzJnyUi"]),
        Case(url: "gotify://push.example.com/AbCdEf.12-3",
             long: "type = \"gotify\"\nurl = \"http://push.example.com\"\ntoken = { env = \"G\" }", environment: ["G": "AbCdEf.12-3"]),
        Case(url: "gotifys://push.example.com:8443/gotify/AbCdEf.12-3",
             long: "type = \"gotify\"\nurl = \"https://push.example.com:8443/gotify\"\ntoken = { env = \"G\" }", environment: ["G": "AbCdEf.12-3"]),
        Case(url: "matrixs://syt_Ym90_abcdef123456@matrix.example.org/!AbCdEf",
             long: "type = \"matrix\"\nhomeserver = \"https://matrix.example.org\"\nroom = \"!AbCdEf:matrix.example.org\"\naccess_token = { env = \"M\" }",
             environment: ["M": "syt_Ym90_abcdef123456"]),
        Case(url: "matrix://syt_Ym90_abcdef123456@localhost:8008/!AbCdEf:example.org",
             long: "type = \"matrix\"\nhomeserver = \"http://localhost:8008\"\nroom = \"!AbCdEf:example.org\"\naccess_token = { env = \"M\" }",
             environment: ["M": "syt_Ym90_abcdef123456"]),
        Case(url: "matrixs://syt_Ym90_abcdef123456@matrix.example.org/#prices:example.org",
             long: "type = \"matrix\"\nhomeserver = \"https://matrix.example.org\"\nroom = \"#prices:example.org\"\naccess_token = { env = \"M\" }",
             environment: ["M": "syt_Ym90_abcdef123456"]),
        Case(url: "matrixs://matrix.example.org/!AbCdEf:example.org?token=syt_Ym90_abcdef123456",
             long: "type = \"matrix\"\nhomeserver = \"https://matrix.example.org\"\nroom = \"!AbCdEf:example.org\"\naccess_token = { env = \"M\" }",
             environment: ["M": "syt_Ym90_abcdef123456"]),
        Case(url: "ntfy://price-alerts", long: "type = \"webhook\"\nurl = \"https://ntfy.sh/price-alerts\"\nformat = \"ntfy\""),
        Case(url: "ntfys://ntfy.example.com/price-alerts", long: "type = \"webhook\"\nurl = \"https://ntfy.example.com/price-alerts\"\nformat = \"ntfy\""),
        Case(url: "ntfy://127.0.0.1:8080/price-alerts", long: "type = \"webhook\"\nurl = \"http://127.0.0.1:8080/price-alerts\"\nformat = \"ntfy\""),
        Case(url: "json://hooks.example.com/pricewatch/in", long: "type = \"webhook\"\nurl = \"http://hooks.example.com/pricewatch/in\""),
        Case(url: "jsons://hooks.example.com:8443/in", long: "type = \"webhook\"\nurl = \"https://hooks.example.com:8443/in\"\nformat = \"json\""),
        Case(url: "mqtt://ha:Pa55word@broker.lan:1884/home/prices",
             long: "type = \"mqtt\"\nhost = \"broker.lan\"\nport = 1884\nusername = \"ha\"\npassword = { env = \"Q\" }\nprefix = \"home/prices\"",
             environment: ["Q": "Pa55word"]),
        Case(url: "mqtts://broker.example.com", long: "type = \"mqtt\"\nhost = \"broker.example.com\"\ntls = true\nport = 8883"),
        Case(url: "mailto://alerts:Pa55word@smtp.example.com:587?to=ops@example.com,me@example.com",
             long: "type = \"email\"\nurl = \"smtp://smtp.example.com:587\"\nfrom = \"alerts@smtp.example.com\"\nto = [\"ops@example.com\", \"me@example.com\"]\nusername = \"alerts\"\npassword = { env = \"E\" }",
             environment: ["E": "Pa55word"]),
        Case(url: "mailtos://alerts@example.com:Pa55word@mail.example.com:465?from=Price%20Watch%20%3Calerts@example.com%3E",
             long: "type = \"email\"\nurl = \"smtps://mail.example.com:465\"\nfrom = \"Price Watch <alerts@example.com>\"\nto = [\"Price Watch <alerts@example.com>\"]\nusername = \"alerts@example.com\"\npassword = { env = \"E\" }",
             environment: ["E": "Pa55word"]),
    ]

    @Test(arguments: cases)
    func theURLIsTheSameSinkAsTheLongForm(_ item: Case) throws {
        let (short, shortDiagnostics) = try load("url = \"\(item.url)\"")
        let (long, longDiagnostics) = try load(item.long, environment: item.environment)
        #expect(shortDiagnostics == [])
        #expect(longDiagnostics == [])
        let a = try #require(short?.sink(named: "s")), b = try #require(long?.sink(named: "s"))
        #expect(a.type == b.type)
        #expect(Self.comparable(a.options) == Self.comparable(b.options))
        // And the sink builds from it, as from the long form.
        let built = AdapterFactory.sinks(for: try #require(short))
        #expect(!built.diagnostics.containsErrors, "\(built.diagnostics)")
        #expect(built.sinks["s"]?.identity == "\(b.type)/s")
    }

    @Test func typedSettingsAreEqualToo() throws {
        let (short, _) = try load("url = \"tgram://\(Self.telegramToken)/@price_alerts:12?silent=yes\"")
        let (long, _) = try load("type = \"telegram\"\ntoken = { env = \"T\" }\nchat = \"@price_alerts\"\ntopic = 12\nsilent = true",
                                 environment: ["T": Self.telegramToken])
        let a = TelegramSettings(try #require(short?.sink(named: "s")).options)
        let b = TelegramSettings(try #require(long?.sink(named: "s")).options)
        #expect(a == b)
        #expect(a.apiURL == "https://api.telegram.org")
    }

    @Test func keysBesideTheURLReplaceItsParts() throws {
        let (configuration, diagnostics) = try load("url = \"tgram://\(Self.telegramToken)/42\"\nchat = \"@other\"\nchart = true\nmax_age = \"1h\"")
        #expect(diagnostics == [])
        let sink = try #require(configuration?.sink(named: "s"))
        #expect(sink.options.string("chat") == "@other")
        #expect(sink.options.boolean("chart") == true)
    }

    @Test func theURLMayBeASecretFromAFileOrTheEnvironment() throws {
        let url = "tgram://\(Self.telegramToken)/42"
        let (fromEnvironment, diagnostics) = try load("url = { env = \"TG_URL\" }", environment: ["TG_URL": url])
        #expect(diagnostics == [])
        let sink = try #require(fromEnvironment?.sink(named: "s"))
        #expect(sink.type == "telegram")
        #expect(sink.options.secret("token") == Secret(value: Self.telegramToken, origin: "url from env TG_URL"))
        let (fromFile, fileDiagnostics) = try load("url = { file = \"tg.url\" }", files: ["tg.url": url + "\n"])
        #expect(fileDiagnostics.allSatisfy { $0.contains("warning") })
        #expect(fromFile?.sink(named: "s")?.options.secret("token")?.value == Self.telegramToken)
        // The configuration's redactor knows the token, as any other secret.
        let redactor = SecretRedactor(try #require(fromEnvironment))
        #expect(redactor.redact("echo \(Self.telegramToken)") == "echo <redacted>")
    }

    @Test func anUnknownSchemeListsTheKnownOnesWithoutShowingTheURL() throws {
        let (configuration, diagnostics) = try load("url = \"slack://T0AAA/B0BBB/SecretXyzSecretXyz\"")
        #expect(configuration == nil)
        #expect(diagnostics.count == 1)
        let line = try #require(diagnostics.first)
        #expect(line.contains("error: sinks.s.url: unknown URL scheme 'slack://' for a sink written without 'type' (known schemes: "
            + "json, jsons, ntfy, ntfys, mailto, mailtos, tgram, pover, gotify, gotifys, matrix, matrixs, mqtt, mqtts; "
            + "or write type = \"...\" and the type's keys)"), "\(line)")
        #expect(!line.contains("SecretXyz") && !line.contains("T0AAA"))
    }

    @Test func aBrokenURLIsExplainedWithoutShowingIt() throws {
        let cases = [
            ("tgram://\(Self.telegramToken)", "tgram:// URL: expected a chat after the token, found none (expected tgram://TOKEN/CHAT)"),
            ("tgram://\(Self.telegramToken)/1/2", "tgram:// URL: expected one chat, found 2: write one sink per chat"),
            ("pover://azGDORePK8gMaC0QOYAMyEEuzJnyUi", "pover:// URL: expected the user key before '@', found none"),
            ("matrixs://user:Pa55word@matrix.example.org/!r", "matrixs:// URL: user and password logins are not supported"),
            ("https://hooks.example.com/x", "unknown URL scheme 'https://'"),
        ]
        for (url, expected) in cases {
            let (configuration, diagnostics) = try load("url = \"\(url)\"")
            #expect(configuration == nil)
            #expect(diagnostics.count == 1 && diagnostics.first?.contains(expected) == true, "\(url): \(diagnostics)")
            for line in diagnostics {
                #expect(!line.contains("AAHf3kQz") && !line.contains("azGDORePK8") && !line.contains("Pa55word"), "\(line)")
            }
        }
    }

    @Test func aRoomAliasWithoutItsServerGetsTheHosts() throws {
        let (configuration, diagnostics) = try load("url = \"matrixs://syt_abcdef@matrix.example.org/%23prices\"")
        #expect(diagnostics == [])
        #expect(configuration?.sink(named: "s")?.options.string("room") == "#prices:matrix.example.org")
        let (written, problems) = try load("type = \"matrix\"\nhomeserver = \"https://m.example.org\"\nroom = \"prices\"\naccess_token = { env = \"M\" }",
                                           environment: ["M": "syt_abcdef"])
        #expect(written == nil)
        #expect(problems.first?.contains("sinks.s.room: expected a room id such as !AbCdEf:example.org or an alias such as #prices:example.org, found 'prices'") == true,
                "\(problems)")
    }

    /// Commands that read only the state (`alerts`, `requeue`) name a sink written as a URL by
    /// the type its scheme stands for; one whose URL is a secret (not read there) by its name.
    @Test func theStateLocationKnowsTheTypeOfASinkWrittenAsAURL() throws {
        let fixture = try ConfigFixture([
            "pricewatch.toml": """
                state = "pw.db"
                [sinks.phone]
                url = "tgram://\(Self.telegramToken)/42"
                [sinks.topic]
                url = "ntfy://price-alerts"
                [sinks.hidden]
                url = { credential = "pushover-url" }
                """,
        ])
        defer { fixture.remove() }
        let location = ConfigurationLoader.stateLocation(mainFile: fixture.path("pricewatch.toml"), schemas: AdapterCatalog.schemas).location
        #expect(location?.sinkIdentities == ["phone": "telegram/phone", "topic": "webhook/topic"])
    }
}
