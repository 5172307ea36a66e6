import Foundation
@testable import PriceWatchConfig
import PriceWatchApp
import PriceWatchCore
import Testing

/// pricewatch.toml(5) (`docs/man/pricewatch.toml.5`, written by hand) describes every key and
/// every type the configuration reader accepts: a key added to the reader without a line in
/// the manual fails here. The packaged conffile is valid and inert.
@Suite struct ConfigurationManualTests {
    static let page: String = {
        let path = ExampleConfigurationTests.packageRoot + "/docs/man/pricewatch.toml.5"
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }()

    /// The words set in bold on the page (`.B key`, `.BR key ...`, `\fBkey\fR`), unescaped.
    static let boldWords: Set<String> = {
        var words: Set<String> = []
        for line in page.split(separator: "\n") {
            var text = String(line).replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\(dq", with: "\"")
            if text.hasPrefix(".B ") || text.hasPrefix(".BR ") {
                text = String(text.drop { $0 != " " }.dropFirst())
                words.formUnion(text.split(whereSeparator: { $0 == " " || $0 == "\"" || $0 == "," }).map(String.init))
            }
            for part in text.components(separatedBy: "\\fB").dropFirst() {
                if let end = part.range(of: "\\f") { words.insert(String(part[..<end.lowerBound])) }
            }
        }
        return words
    }()

    static var everyKey: [(String, String)] {
        var keys = MainFileReader.keys.map { ("main file", $0) }
        keys += ProviderTypes.commonKeys.map { ("providers", $0) }
        for schema in AdapterCatalog.providers.map(\.schema) {
            keys.append(("provider types", schema.type))
            keys += schema.keys.map { ("provider \(schema.type)", $0) }
        }
        keys += SinkTypes.commonKeys.map { ("sinks", $0) }
        for schema in AdapterCatalog.sinks.map(\.schema) {
            keys.append(("sink types", schema.type))
            keys += schema.keys.map { ("sink \(schema.type)", $0) }
        }
        keys += RuleReader.keys.map { ("rules", $0) }
        keys += SecretResolver.sources.map { ("secrets", $0) }
        return keys
    }

    @Test func everyKeyTheReaderAcceptsIsOnThePage() {
        #expect(!Self.page.isEmpty, "docs/man/pricewatch.toml.5 is missing")
        let missing = Self.everyKey.filter { _, key in
            !Self.boldWords.contains(key) && !Self.page.contains("\\fB\(key)") && !Self.page.contains("{ \(key) =") && !Self.page.contains("[\(key).")
        }
        #expect(missing.isEmpty, "keys the reader accepts but pricewatch.toml(5) does not describe: \(missing.map { "\($0.0): \($0.1)" })")
    }

    /// The Debian package's /etc/pricewatch/pricewatch.toml: valid, no rule, so nothing polls.
    @Test func thePackagedConffileIsValidAndInert() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pricewatch-conffile-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory + "/rules.d", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.copyItem(atPath: ExampleConfigurationTests.packageRoot + "/packaging/debian/pricewatch.toml",
                                         toPath: directory + "/pricewatch.toml")
        let (configuration, diagnostics) = ConfigurationLoader.load(mainFile: directory + "/pricewatch.toml", environment: [:],
                                                                    schemas: AdapterCatalog.schemas)
        #expect(!diagnostics.containsErrors, "\(diagnostics.map(\.description))")
        let loaded = try #require(configuration)
        #expect(loaded.rules.isEmpty)
        #expect(loaded.allSymbols.isEmpty)
    }
}
