import Foundation
import PriceWatchTestKit
import Testing

/// Shell completions and pricewatch(1), generated from the built binary: sink names for
/// `notify-test` come from the configuration; the manual page lists every command and option
/// the parser knows, so it cannot drift.
@Suite struct CompletionAndManualTests {
    @Test func notifyTestCompletesTheConfiguredSinkNames() throws {
        let directory = try TemporaryDirectory()
        try directory.write("p.toml", "[sinks.alpha]\ntype = \"stdout\"\n[sinks.beta]\ntype = \"webhook\"\nurl = \"http://127.0.0.1:9/\"\n")
        let result = try CommandRunner.run(["---completion", "notify-test", "--", "positional@0", "3", "0",
                                            "pricewatch", "notify-test", "--config", "p.toml", ""], in: directory.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines == ["alpha", "beta"])
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsCompleteFilesAndValues(shell: String) throws {
        let result = try CommandRunner.run(["--generate-completion-script", shell])
        #expect(result.status == 0, "\(result.standardError)")
        // fish writes long options as `-l config`.
        let dashes = shell == "fish" ? "-l '" : "--"
        for expected in ["config", "rules", "data", "format"].map({ dashes + $0 }) + ["notify-test", "csv", "pending", "toml"] {
            #expect(result.standardOutput.contains(expected), "\(shell): no \(expected)")
        }
    }

    @Test func theManualPageHasEveryCommandOptionAndTheEnvironment() throws {
        let directory = try TemporaryDirectory()
        let generate = Process()
        generate.executableURL = URL(fileURLWithPath: RepositoryFiles.path("scripts/generate-docs"))
        generate.arguments = [CommandRunner.executable, directory.path]
        try generate.run()
        generate.waitUntilExit()
        #expect(generate.terminationStatus == 0)
        let page = try String(contentsOfFile: directory.file("pricewatch.1"), encoding: .utf8)
        let help = try CommandRunner.run(["--experimental-dump-help"])
        let tool = try #require(try JSONSerialization.jsonObject(with: Data(help.standardOutput.utf8)) as? [String: Any])
        let command = try #require(tool["command"] as? [String: Any])
        var missing: [String] = []
        for sub in command["subcommands"] as? [[String: Any]] ?? [] {
            let name = sub["commandName"] as? String ?? ""
            guard name != "help" else { continue }
            if !page.contains(".SS pricewatch \(name.replacingOccurrences(of: "-", with: "\\-"))") { missing.append(name) }
            // Hidden options (`market --now`, for tests) are left out of the page on purpose.
            for argument in sub["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool ?? true {
                for option in argument["names"] as? [[String: Any]] ?? [] where option["kind"] as? String == "long" {
                    let flag = "\\-\\-" + (option["name"] as? String ?? "").replacingOccurrences(of: "-", with: "\\-")
                    if !["help", "version"].contains(option["name"] as? String), !page.contains(flag) { missing.append("\(name) \(flag)") }
                }
            }
        }
        #expect(missing.isEmpty, "not in pricewatch(1): \(missing)")
        for section in [".SH EXIT STATUS", ".SH ENVIRONMENT", ".B PRICEWATCH_CONFIG", ".SH FILES", "(alias: status)", "Default: text."] {
            #expect(page.contains(section), "no \(section)")
        }
    }
}
