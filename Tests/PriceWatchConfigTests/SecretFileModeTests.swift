import Foundation
import PriceWatchConfig
import PriceWatchCore
import Testing

/// A secret file (`{ file = "PATH" }`) its group or every user may read gets a warning naming
/// the file and its mode (never the secret); a credential or an owner-only file gets none.
@Suite struct SecretFileModeTests {
    static func fixture(mode: Int, credentialMode: Int = 0o644) throws -> ConfigFixture {
        let fixture = try ConfigFixture([
            "pricewatch.toml": """
                [providers.a]
                type = "replay"
                file = "quotes.csv"
                api_key = { file = "secrets/a.key" }

                [providers.b]
                type = "replay"
                file = "quotes.csv"
                api_key = { credential = "b-key" }

                [sinks.console]
                type = "stdout"
                """,
            "quotes.csv": GoldenCase.csv,
            "secrets/a.key": "key-a-very-secret\n",
            "creds/b-key": "key-b-very-secret\n",
            "rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nprovider = \"a\"\nabove = 1")
                + GoldenCase.rule("id = \"y\"\nsymbol = \"AAPL\"\nprovider = \"b\"\nabove = 1"),
        ])
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: fixture.path("secrets/a.key"))
        try FileManager.default.setAttributes([.posixPermissions: credentialMode], ofItemAtPath: fixture.path("creds/b-key"))
        return fixture
    }

    @Test(arguments: [(0o644, "its group and every user", "0644"), (0o640, "its group", "0640"), (0o604, "every user", "0604")])
    func aSecretFileReadableByOthersIsWarnedAbout(mode: Int, readers: String, octal: String) throws {
        let fixture = try Self.fixture(mode: mode)
        defer { fixture.remove() }
        let (configuration, diagnostics) = fixture.load(["CREDENTIALS_DIRECTORY": fixture.path("creds")])
        #expect(configuration != nil, "a warning, not an error")
        #expect(fixture.render(diagnostics) == [
            "$DIR/pricewatch.toml:4:13: warning: providers.a.api_key: secret file '$DIR/secrets/a.key' is readable by \(readers) "
                + "(mode \(octal)); make it readable by its owner only (chmod 600), or give it to the service as a systemd credential "
                + "({ credential = \"NAME\" } with LoadCredential=NAME:$DIR/secrets/a.key)",
        ])
        #expect(!diagnostics.contains { $0.description.contains("very-secret") })
    }

    @Test func anOwnerOnlySecretFileAndACredentialAreNotWarnedAbout() throws {
        let fixture = try Self.fixture(mode: 0o600, credentialMode: 0o644)
        defer { fixture.remove() }
        let (configuration, diagnostics) = fixture.load(["CREDENTIALS_DIRECTORY": fixture.path("creds")])
        #expect(configuration != nil)
        #expect(diagnostics.isEmpty, "\(fixture.render(diagnostics))")
    }
}
