import ArgumentParser
import PriceWatchApp
import PriceWatchCore

/// `pricewatch quote [--provider NAME] [--format text|json] SYMBOL...`
struct QuoteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quote",
        abstract: "Fetch and print current quotes.",
        discussion: """
            One request per batch of the provider's size, no retries. Text: an aligned table \
            (SYMBOL PRICE PREV_CLOSE CHANGE CURRENCY TIME EXCHANGE STATE, '-' where the provider \
            gives nothing). JSON: one object per symbol, null where the provider gives nothing. \
            A symbol that fails prints 'SYMBOL: error: MESSAGE' to standard error and the exit \
            status is 1.
            """)

    @OptionGroup var config: ConfigOption

    @Option(help: ArgumentHelp("The provider to ask (default: the main file's provider, or the only one).", valueName: "name"))
    var provider: String?

    @Option(help: "Output format: text, or json for JSON Lines.")
    var format: OutputFormat = .text

    @Argument(help: ArgumentHelp("Symbols as the provider writes them (AAPL, BTC-USD, BTCUSDT).", valueName: "symbol"))
    var symbols: [String]

    func validate() throws {
        if symbols.isEmpty { throw ValidationError("Missing expected argument '<symbol> ...'") }
        if let bad = symbols.first(where: { $0.isEmpty || $0.contains(where: \.isWhitespace) }) {
            throw ValidationError("expected a symbol without blanks, found '\(bad)'")
        }
    }

    func run() async throws {
        let selection = try QuoteProviderSelection.load(config: config, requested: provider)
        var errors = StandardOutput.error()
        let answers = await LookUpQuotes.fetch(symbols, from: selection) { errors.line($0) }
        var quotes: [Quote] = []
        for (symbol, answer) in answers {
            switch answer {
            case .success(let quote): quotes.append(quote)
            case .failure(let error): errors.line("\(symbol): error: \(ControlCharacters.escaped(error.message))")
            }
        }
        var output = StandardOutput.output()
        switch format {
        case .json:
            for quote in quotes { output.line(QuoteRendering.jsonLine(quote, provider: selection.name)) }
        case .text:
            if !quotes.isEmpty { for line in QuoteRendering.table(quotes) { output.line(line) } }
        }
        output.flush()
        errors.flush()
        if quotes.count != answers.count { throw ExitCode.failure }
    }
}
