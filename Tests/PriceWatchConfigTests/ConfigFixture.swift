import Foundation
import PriceWatchApp
import PriceWatchConfig
import PriceWatchCore

/// A temporary directory holding a configuration tree for one test.
///
/// Files are written relative to the directory; `load()` loads `pricewatch.toml` by its
/// path relative to the directory's parent's view of it (`<dir>/pricewatch.toml`), and
/// `rendered` turns diagnostics into the lines `pricewatch check` would print, with the
/// directory replaced by `$DIR` so goldens do not depend on where the test runs.
struct ConfigFixture {
    let directory: String

    init(_ files: [String: String] = [:]) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("pricewatch-config-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (path, text) in files { try write(path, text) }
    }

    func write(_ path: String, _ text: String) throws {
        let full = directory + "/" + path
        let parent = (full as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    func path(_ relative: String) -> String { directory + "/" + relative }

    /// Loads `<dir>/pricewatch.toml`.
    func load(_ environment: [String: String] = [:]) -> (configuration: Configuration?, diagnostics: [Diagnostic]) {
        ConfigurationLoader.load(mainFile: path("pricewatch.toml"), environment: environment, schemas: AdapterCatalog.schemas)
    }

    /// The diagnostics of `load()`, rendered, with the directory written `$DIR`.
    func rendered(_ environment: [String: String] = [:]) -> [String] {
        render(load(environment).diagnostics)
    }

    func render(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map { $0.description.replacingOccurrences(of: directory, with: "$DIR") }
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
