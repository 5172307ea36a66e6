import Foundation
import PriceWatchTestKit
import Testing

/// The README's "first rule" is a configuration a new user copies as it is: `pricewatch check`
/// must accept it (the front door cannot rot).
@Suite struct ReadmeExampleTests {
    @Test func firstRuleExamplePassesCheck() async throws {
        let readme = try String(contentsOfFile: RepositoryFiles.path("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Configure: a first rule").dropFirst().first,
                                   "README.md has no section 'Configure: a first rule'")
        let blocks = section.components(separatedBy: "```toml\n").dropFirst()
            .map { $0.components(separatedBy: "```").first ?? "" }
        try #require(blocks.count >= 2, "expected the main file and a rule file as TOML blocks, found \(blocks.count)")
        let directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", "state = \"state.db\"\n" + blocks[0])
        try directory.write("rules.d/first.toml", blocks[1])
        let result = try await CommandRunner.run(["check", "--config", "pricewatch.toml"], in: directory.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.first?.contains(": ok: 4 rules on 4 symbols, 1 provider, 1 sink") == true,
                "\(result.standardOutput)")
    }
}
