import Foundation
import Testing
import PriceWatchConfig
import PriceWatchCore

/// No diagnostic ever contains a secret (`docs/configuration.md`, "Files": secrets "never appear in logs,
/// errors or command output").
@Suite struct SecretLeakTests {
    static let secret = "s3cr3t-VALUE"

    @Test func noDiagnosticContainsTheSecret() throws {
        let secret = Self.secret
        let main = """
            interval = "5x"
            intervall = "1m"

            [providers.from-file]
            type = "replay"
            file = "quotes.csv"
            api_key = { file = "secret.txt" }
            interval = 5
            fallback = ["from-file"]

            [providers.from-env]
            type = "replay"
            file = "quotes.csv"
            api_key = { env = "DEMO_KEY" }
            base_url = 7

            [providers.from-credential]
            type = "replay"
            file = "quotes.csv"
            api_key = { credential = "demo" }
            apikey = 1

            [providers.pasted]
            type = "replay"
            file = "quotes.csv"
            api_key = "\(secret)"

            [providers.pasted-array]
            type = "replay"
            file = "quotes.csv"
            api_key = ["\(secret)"]

            [providers.pasted-as-env-name]
            type = "replay"
            file = "quotes.csv"
            api_key = { env = "\(secret)" }

            [providers.pasted-as-source]
            type = "replay"
            file = "quotes.csv"
            api_key = { value = "\(secret)" }

            [providers.two-sources]
            type = "replay"
            file = "quotes.csv"
            api_key = { env = "DEMO_KEY", file = "secret.txt" }

            [sinks.console]
            type = "stdout"
            format = "yaml"
            """
        let fixture = try ConfigFixture([
            "pricewatch.toml": main,
            "quotes.csv": GoldenCase.csv,
            "secret.txt": secret + "\n",
            "creds/demo": secret,
            "rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 1\nprovider = \"from-env\"\nrearm = 200"),
            "rules.d/b.toml": "[[rule]]\nid = \"\(secret)\nsymbol = \"\(secret)\"\n",
        ])
        defer { fixture.remove() }
        let environment = ["DEMO_KEY": secret, "CREDENTIALS_DIRECTORY": fixture.path("creds")]
        let (configuration, diagnostics) = fixture.load(environment)
        #expect(configuration == nil)
        #expect(diagnostics.count >= 10)
        for diagnostic in diagnostics {
            #expect(!diagnostic.description.contains(secret), "\(diagnostic)")
            #expect(!String(reflecting: diagnostic).contains(secret), "\(diagnostic)")
        }
    }

    @Test func aResolvedSecretDescribesItselfWithoutItsValue() throws {
        let fixture = try ConfigFixture([
            "pricewatch.toml": """
                [providers.demo]
                type = "replay"
                file = "quotes.csv"
                api_key = { env = "DEMO_KEY" }

                [sinks.console]
                type = "stdout"
                """,
            "quotes.csv": GoldenCase.csv,
            "rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 1"),
        ])
        defer { fixture.remove() }
        let (configuration, diagnostics) = fixture.load(["DEMO_KEY": Self.secret + "\n"])
        #expect(diagnostics.isEmpty)
        let loaded = try #require(configuration)
        #expect(loaded.providers.first?.apiKey?.value == Self.secret)
        #expect(!"\(loaded)".contains(Self.secret))
        #expect(!String(reflecting: loaded.providers).contains(Self.secret))
    }
}
