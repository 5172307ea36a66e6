import Foundation
import Testing
import PriceWatchConfig
import PriceWatchCore

/// One mistake and the exact diagnostics `pricewatch check` must print for it.
///
/// Each case writes a main file (by default `GoldenCase.main`: one `replay` provider `demo`
/// and one `stdout` sink `console`), its CSV, and the given rule files under `rules.d/`, loads
/// it, and compares the rendered diagnostics, in which the temporary directory reads `$DIR`.
struct GoldenCase: Sendable, CustomTestStringConvertible {
    let name: String
    var main: String = GoldenCase.main
    var files: [String: String] = [:]
    var environment: [String: String] = [:]
    let expected: [String]

    var testDescription: String { name }

    static let main = """
        [providers.demo]
        type = "replay"
        file = "quotes.csv"

        [sinks.console]
        type = "stdout"
        """

    static let csv = "symbol,time,price,previous_close\nAAPL,2024-10-02T13:30:00Z,225.70,226.21\n"

    /// A rule file holding one rule made of `lines` (after a `[[rule]]` header on line 1).
    static func rule(_ lines: String) -> String { "[[rule]]\n" + lines + "\n" }

    func run() throws -> (rendered: [String], configuration: Configuration?, fixture: ConfigFixture) {
        var all = files
        all["pricewatch.toml"] = main
        if all["quotes.csv"] == nil { all["quotes.csv"] = Self.csv }
        let fixture = try ConfigFixture(all)
        var environment = environment
        for (key, value) in environment { environment[key] = value.replacingOccurrences(of: "$DIR", with: fixture.directory) }
        let result = fixture.load(environment)
        return (fixture.render(result.diagnostics), result.configuration, fixture)
    }

    /// Loads the case and expects exactly its diagnostics, and no configuration when one of
    /// them is an error.
    func expectDiagnostics(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (rendered, configuration, fixture) = try run()
        defer { fixture.remove() }
        #expect(rendered == expected, sourceLocation: sourceLocation)
        if expected.contains(where: { $0.contains(": error: ") }) {
            #expect(configuration == nil, sourceLocation: sourceLocation)
        }
    }
}
