import Foundation
import PriceWatchTestKit
import Testing

/// Shell completions and pricewatch(1), generated from the built binary: sink names for
/// `notify-test` come from the configuration; the manual page lists every command and option
/// the parser knows, so it cannot drift.
@Suite struct CompletionAndManualTests {
    @Test func notifyTestCompletesTheConfiguredSinkNames() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("p.toml", "[sinks.alpha]\ntype = \"stdout\"\n[sinks.beta]\ntype = \"webhook\"\nurl = \"http://127.0.0.1:9/\"\n")
        let result = try await CommandRunner.run(["---completion", "notify-test", "--", "positional@0", "3", "0",
                                                  "pricewatch", "notify-test", "--config", "p.toml", ""], in: directory.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines == ["alpha", "beta"])
    }

    /// Issue 30, item 14: digest names, rule ids, sink names for `requeue` and time zones
    /// complete from the configuration the command line names (a file with no secrets read).
    @Test func digestsRulesSinksAndTimeZonesComplete() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("p.toml", """
            [sinks.alpha]
            type = "stdout"
            [sinks.beta]
            type = "stdout"
            [[digest]]
            name = "morning"
            [[digest]]
            name = "weekly"
            """)
        try directory.write("rules.d/a.toml", "[[rule]]\nid = \"msft-low\"\nsymbol = \"MSFT\"\nbelow = 1\n"
            + "[[rule]]\nid = \"aapl-high\"\nsymbol = \"AAPL\"\nabove = 1\n")
        func complete(_ command: [String], _ argument: String, _ words: [String]) async throws -> [String] {
            let line = ["pricewatch"] + command + ["--config", "p.toml"] + words
            let result = try await CommandRunner.run(["---completion"] + command + ["--", argument, "\(line.count - 1)", "0"] + line,
                                                     in: directory.path)
            #expect(result.status == 0, "\(command): \(result.standardError)")
            return result.outputLines
        }
        #expect(try await complete(["digest"], "positional@0", [""]) == ["morning", "weekly"])
        #expect(try await complete(["requeue"], "--sink", ["--sink", ""]) == ["alpha", "beta"])
        #expect(try await complete(["silence", "add"], "--rule", ["--rule", ""]) == ["aapl-high", "msft-low"])
        let zones = try await complete(["rules"], "--tz", ["--tz", ""])
        #expect(zones.first == "market")
        #expect(zones.contains("Europe/London") && zones.contains("America/New_York"), "\(zones.prefix(5))")
    }

    /// Issue 30, item 14: the generator knows no aliases; the scripts complete `status` as
    /// `rules` (bash run for real, zsh and fish by what they declare).
    @Test func theStatusAliasCompletesAsRules() async throws {
        let directory = try TemporaryDirectory()
        let generate = try await CommandRunner.run(program: RepositoryFiles.path("scripts/generate-docs"),
                                                   [CommandRunner.executable, directory.path])
        #expect(generate.status == 0, "\(generate.standardError)")
        let zsh = try String(contentsOfFile: directory.file("_pricewatch"), encoding: .utf8)
        #expect(zsh.contains("'status:Alias of rules: ") && zsh.contains("|rules|status|") && zsh.contains("_pricewatch_status() {"))
        let fish = try String(contentsOfFile: directory.file("pricewatch.fish"), encoding: .utf8)
        #expect(fish.contains("case 'rules' 'status'") && fish.contains("\"pricewatch status\" format' -l 'format'"))
        try directory.write("complete.sh", """
            source "$1"
            COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}
            read -ra COMP_WORDS <<< "$COMP_LINE"
            [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            _pricewatch pricewatch "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """)
        func bash(_ line: String) async throws -> [String] {
            try await CommandRunner.run(program: "/bin/bash", [directory.file("complete.sh"), directory.file("pricewatch.bash"), line],
                                        in: directory.path).outputLines
        }
        #expect(try await bash("pricewatch sta") == ["status"])
        #expect(try await bash("pricewatch status --f") == ["--format"])
        #expect(try await bash("pricewatch status --f") == (try await bash("pricewatch rules --f")))
    }

    /// Issue 30, item 14: `\fI` in a non-raw Python string was a form feed (the page printed
    /// `I/usr/share/pricewatch/calendarsR`); exit status 65 was missing; OPTIONS was empty.
    @Test func theManualPageHasNoControlCharactersExitStatus65AndOptions() async throws {
        let directory = try TemporaryDirectory()
        let generate = try await CommandRunner.run(program: RepositoryFiles.path("scripts/generate-docs"),
                                                   [CommandRunner.executable, directory.path])
        #expect(generate.status == 0, "\(generate.standardError)")
        let page = try String(contentsOfFile: directory.file("pricewatch.1"), encoding: .utf8)
        let control = page.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F }
        #expect(control.isEmpty, "control characters: \(control.map { $0.value })")
        #expect(page.contains("\\fI/usr/share/pricewatch/calendars\\fR"))
        #expect(page.contains(".B 65\n"), "exit status 65")
        let options = try #require(page.range(of: ".SH OPTIONS\n")).upperBound
        let commands = try #require(page.range(of: ".SH COMMANDS\n")).lowerBound
        let section = page[options..<commands]
        for option in ["\\-\\-help", "\\-\\-version", "\\fB\\-\\-config\\fR \\fIpath\\fR", "\\-\\-format"] {
            #expect(section.contains(option), "OPTIONS has no \(option): \(section)")
        }
    }

    /// Issue 30, item 14: `make install` installs the man pages and completions as the package
    /// does (BINARY= the test's build, so no release build is made).
    @Test func makeInstallInstallsTheManPagesAndCompletions() async throws {
        let stage = try TemporaryDirectory()
        let install = try await CommandRunner.run(program: "/usr/bin/make",
                                                  ["-s", "install", "DESTDIR=\(stage.path)", "BINARY=\(CommandRunner.executable)"],
                                                  timeout: .seconds(120))
        #expect(install.status == 0, "\(install.standardError)")
        for file in ["/usr/local/share/man/man1/pricewatch.1.gz", "/usr/local/share/man/man5/pricewatch.toml.5.gz",
                     "/usr/local/share/bash-completion/completions/pricewatch", "/usr/local/share/zsh/site-functions/_pricewatch",
                     "/usr/local/share/fish/vendor_completions.d/pricewatch.fish"] {
            #expect(FileManager.default.fileExists(atPath: stage.path + file), "not installed: \(file)")
            #expect(install.outputLines.contains("installed \(file)"), "not listed: \(file)")
        }
        let bash = try String(contentsOfFile: stage.path + "/usr/local/share/bash-completion/completions/pricewatch", encoding: .utf8)
        #expect(!bash.hasPrefix("#!"), "a completion file is sourced, not run")
        let uninstall = try await CommandRunner.run(program: "/usr/bin/make", ["-s", "uninstall", "DESTDIR=\(stage.path)"])
        #expect(uninstall.status == 0, "\(uninstall.standardError)")
        #expect(!FileManager.default.fileExists(atPath: stage.path + "/usr/local/share/man/man1/pricewatch.1.gz"))
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsCompleteFilesAndValues(shell: String) async throws {
        let result = try await CommandRunner.run(["--generate-completion-script", shell])
        #expect(result.status == 0, "\(result.standardError)")
        // fish writes long options as `-l config`.
        let dashes = shell == "fish" ? "-l '" : "--"
        for expected in ["config", "rules", "data", "format"].map({ dashes + $0 }) + ["notify-test", "csv", "pending", "toml"] {
            #expect(result.standardOutput.contains(expected), "\(shell): no \(expected)")
        }
    }

    @Test func theManualPageHasEveryCommandOptionAndTheEnvironment() async throws {
        let directory = try TemporaryDirectory()
        let generate = Process()
        generate.executableURL = URL(fileURLWithPath: RepositoryFiles.path("scripts/generate-docs"))
        generate.arguments = [CommandRunner.executable, directory.path]
        try generate.run()
        generate.waitUntilExit()
        #expect(generate.terminationStatus == 0)
        let page = try String(contentsOfFile: directory.file("pricewatch.1"), encoding: .utf8)
        let help = try await CommandRunner.run(["--experimental-dump-help"])
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
