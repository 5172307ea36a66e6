import PriceWatchCore
import Testing

/// One redactor from every secret of the configuration (issue 10.2).
@Suite struct SecretRedactorTests {
    func configuration() -> Configuration {
        let interval = RuleDuration(seconds: 60)!
        var sinkOptions = AdapterOptions()
        sinkOptions["password"] = .secret(Secret(value: "smtp-Pa55word", origin: "file /x"))
        sinkOptions["url"] = .string("smtp://mail.example.com")
        var providerOptions = AdapterOptions()
        providerOptions["token"] = .secret(Secret(value: "opt-token-9", origin: "env T"))
        return Configuration(
            mainFile: "/etc/pricewatch/pricewatch.toml", statePath: "/var/lib/pricewatch/state.db", interval: interval, retention: interval,
            providers: [ProviderConfiguration(name: "f", type: "finnhub", interval: interval,
                                              apiKey: Secret(value: "key/with+slash", origin: "env K"), options: providerOptions)],
            sinks: [SinkConfiguration(name: "m", type: "email", options: sinkOptions)], rules: [])
    }

    @Test func everySecretOfTheConfigurationInEveryEchoedForm() {
        let redactor = SecretRedactor(configuration())
        let text = #"401 for key/with+slash (token=key%2Fwith%2Bslash, {"k":"key\/with+slash"}); smtp-Pa55word; opt-token-9; smtp://mail.example.com"#
        #expect(redactor.redact(text) == "401 for <redacted> (token=<redacted>, {\"k\":\"<redacted>\"}); <redacted>; <redacted>; smtp://mail.example.com")
    }

    @Test func longerSecretsFirstAndShortValuesLeftAlone() {
        let redactor = SecretRedactor(secrets: ["abcd", "abcdefgh", "xyz"])
        #expect(redactor.redact("abcdefgh abcd xyz") == "<redacted> <redacted> xyz")
        #expect(SecretRedactor().redact("abcd") == "abcd")
        #expect(SecretRedactor().isEmpty)
    }

    @Test func mergedKeepsBoth() {
        let merged = SecretRedactor(secrets: ["first-secret"]).merged(with: SecretRedactor(secrets: ["second-secret"]))
        #expect(merged.redact("first-secret second-secret") == "<redacted> <redacted>")
        #expect(!"\(merged)".contains("secret-"))
    }
}
