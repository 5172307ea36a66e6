import ArgumentParser
import PriceWatchApp
import PriceWatchCore

/// `pricewatch search [--provider NAME] [--format text|json] QUERY`
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Look symbols up by ticker or company name.",
        discussion: """
            Text: an aligned table (SYMBOL NAME EXCHANGE TYPE, '-' where the provider gives \
            nothing). JSON: one object per match, null where the provider gives nothing. \
            Several words are one query ('search apple inc' looks up "apple inc").
            """)

    @OptionGroup var config: ConfigOption

    @Option(help: ArgumentHelp("The provider to ask (default: the main file's provider, or the only one).", valueName: "name"))
    var provider: String?

    @Option(help: "Output format: text, or json for JSON Lines.")
    var format: OutputFormat = .text

    @Argument(help: ArgumentHelp("A ticker or a company name.", valueName: "query"))
    var query: [String]

    func validate() throws {
        if query.joined().allSatisfy(\.isWhitespace) { throw ValidationError("Missing expected argument '<query>'") }
    }

    func run() async throws {
        let selection = try QuoteProviderSelection.load(config: config, requested: provider)
        var errors = StandardOutput.error()
        guard let searching = selection.provider as? any SymbolSearching else {
            errors.line("\(config.path): error: provider '\(selection.name)' (type \(selection.type)) cannot search symbols")
            errors.flush()
            throw ExitCode.failure
        }
        let text = query.joined(separator: " ")
        var matches: [SymbolMatch] = []
        do {
            for match in try await searching.search(text) {
                let checked = ProviderText.validated(match)
                for problem in checked.problems { errors.line(problem.description) }
                if let kept = checked.match { matches.append(kept) }
            }
        } catch {
            errors.line(SubjectErrorLine.text(subject: ControlCharacters.escaped(text), message: ControlCharacters.escaped(error.message)))
            errors.flush()
            throw ExitCode.failure
        }
        var output = StandardOutput.output()
        switch format {
        case .json:
            for match in matches {
                var writer = JSONWriter()
                writer.string("symbol", match.symbol)
                writer.string("name", match.name)
                writer.string("exchange", match.exchange)
                writer.string("type", match.type)
                output.line(writer.result)
            }
        case .text:
            if matches.isEmpty {
                errors.line("no matches for '\(text)'")
            } else {
                let rows = matches.map { [$0.symbol, $0.name ?? "-", $0.exchange ?? "-", $0.type ?? "-"] }
                for line in TextTable.render(header: ["SYMBOL", "NAME", "EXCHANGE", "TYPE"], rows: rows) { output.line(line) }
            }
        }
        output.flush()
        errors.flush()
    }
}
