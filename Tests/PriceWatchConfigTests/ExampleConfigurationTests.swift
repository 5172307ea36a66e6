import Foundation
import Testing
import PriceWatchApp
import PriceWatchConfig
import PriceWatchCore

/// The example tree under `etc/pricewatch/` loads without errors, shows every condition and
/// every rule option, and every `*.toml` under `etc/` is part of it.
@Suite struct ExampleConfigurationTests {
    /// The package root, from this file's path (`Tests/PriceWatchConfigTests/<file>`).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let mainFile = packageRoot + "/etc/pricewatch/pricewatch.toml"

    @Test func theExampleLoadsWithoutErrorsOrWarnings() throws {
        let (configuration, diagnostics) = ConfigurationLoader.load(mainFile: Self.mainFile, environment: [:], schemas: AdapterCatalog.schemas)
        #expect(diagnostics.map(\.description) == [])
        let loaded = try #require(configuration)
        #expect(loaded.statePath == "/var/lib/pricewatch/pricewatch.db")
        #expect(loaded.providers.map(\.type) == ["replay"])
        #expect(loaded.providers.first?.file == Self.packageRoot + "/etc/pricewatch/replay/aapl-1m-2024-10-02.csv")
        #expect(loaded.sinks.map(\.identity) == ["stdout/console"])
    }

    @Test func theExampleShowsEveryConditionAndEveryOption() throws {
        let (configuration, _) = ConfigurationLoader.load(mainFile: Self.mainFile, environment: [:], schemas: AdapterCatalog.schemas)
        let rules = try #require(configuration?.rules)
        #expect(Set(rules.map(\.condition.key)) == Set(Condition.keys))
        let ruleText = try Self.tomlFiles(under: "etc/pricewatch/rules.d")
            .map { try String(contentsOfFile: $0, encoding: .utf8) }
            .joined(separator: "\n")
        for key in ["symbol", "symbols", "provider", "rearm", "cooldown", "once", "expires", "enabled", "notify", "message"] {
            #expect(ruleText.contains("\n\(key) = "), "no rule sets '\(key)'")
        }
        #expect(rules.contains { $0.condition.isPercent && $0.baseline == .previousClose && $0.window == nil })
        #expect(ruleText.contains("from = \"previous_close\""))
        #expect(rules.contains { $0.window != nil })
        #expect(rules.contains { $0.expires != nil })
        // Technical rules: a series tested, a series as the level, a number as the level.
        #expect(rules.contains { $0.series?.of != .price && $0.series?.level != nil })
        #expect(rules.contains { $0.series?.of != .price && $0.series?.level == nil })
        #expect(rules.contains { $0.series?.of == .price && $0.series?.level != nil })
    }

    @Test func theMainFileDocumentsEveryKey() throws {
        let text = try String(contentsOfFile: Self.mainFile, encoding: .utf8)
        for key in ["rules", "state", "interval", "retention", "provider", "notify", "type", "base_url",
                    "api_key", "fallback", "file", "format", "credential", "env", "stale_after",
                    "failure_warning_after", "requests_per_minute"] {
            #expect(text.contains("# \(key)") || text.contains("#   \(key)") || text.contains("\(key) ="), "'\(key)' is not documented")
        }
    }

    @Test func everyTOMLFileUnderEtcIsCoveredByTheExample() throws {
        let all = try Self.tomlFiles(under: "etc")
        let covered = [Self.mainFile] + (try Self.tomlFiles(under: "etc/pricewatch/rules.d"))
        #expect(Set(all) == Set(covered))
        #expect(!all.isEmpty)
    }

    /// Every `*.toml` below `directory` (relative to the package root), absolute, sorted.
    static func tomlFiles(under directory: String) throws -> [String] {
        let root = packageRoot + "/" + directory
        let enumerator = FileManager.default.enumerator(atPath: URL(fileURLWithPath: root).resolvingSymlinksInPath().path)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(".toml") { files.append(root + "/" + relative) }
        }
        return files.sorted()
    }
}
