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

    /// Issue 29: text cut before it reached the redactor (a 200-character error line) kept
    /// the part of a secret in front of the cut. Any run of ``SecretRedactor/fragmentLength``
    /// characters of a secret is the secret: the sweep puts the secret at every position across
    /// the cut, and no 6-character run of it (as written or percent-encoded) may remain.
    @Test func anyRunOfSixCharactersOfASecretIsRedacted() {
        let secret = "sk_live/Zq9+TOKEN42"
        let redactor = SecretRedactor(secrets: [secret])
        for form in [secret, "sk_live%2FZq9%2BTOKEN42"] {
            for padding in 150...200 {
                let line = String((String(repeating: "a", count: padding) + form + " tail").prefix(200))
                let shown = redactor.redact(line)
                #expect(Self.runs(of: form).allSatisfy { !shown.contains($0) }, "at \(padding): \(shown)")
                #expect(Self.runs(of: secret).allSatisfy { !shown.contains($0) }, "at \(padding): \(shown)")
            }
            // The start of the secret after a cut at the front, as a message quoting a tail would show it.
            let tail = redactor.redact("…" + form.dropFirst(5) + " was refused")
            #expect(tail == "…<redacted> was refused")
        }
        // Five characters are too few to tell a secret from a word.
        #expect(redactor.redact("sk_li and N42") == "sk_li and N42")
    }

    /// Every run of six characters of `text`.
    static func runs(of text: String) -> [String] {
        let characters = Array(text)
        guard characters.count >= 6 else { return [] }
        return (0...(characters.count - 6)).map { String(characters[$0..<($0 + 6)]) }
    }
}
