import ArgumentParser
import FoundationEssentials
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

    @OptionGroup var timeZone: TimeZoneOption

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
        var sources: [String] = []
        for (symbol, answer, source) in answers {
            switch answer {
            case .success(let quote):
                quotes.append(quote)
                sources.append(source)
            case .failure(let error): errors.line(SubjectErrorLine.text(subject: symbol, message: ControlCharacters.escaped(error.message)))
            }
        }
        var output = StandardOutput.output()
        switch format {
        case .json:
            for (quote, source) in zip(quotes, sources) { output.line(QuoteRendering.jsonLine(quote, provider: source)) }
        case .text:
            if !quotes.isEmpty {
                let zoned = timeZone.isMarket ? Self.inMarketZones(quotes, configPath: config.path) : quotes
                for line in QuoteRendering.table(zoned, zone: timeZone.isMarket ? nil : timeZone.zone, marketZones: timeZone.isMarket) {
                    output.line(line)
                }
            }
        }
        output.flush()
        errors.flush()
        if quotes.count != answers.count { throw ExitCode.failure }
    }

    /// The quotes with their market's zone filled in from the trading calendars where the
    /// provider gave none (`--tz market`).
    static func inMarketZones(_ quotes: [Quote], configPath: String) -> [Quote] {
        let calendars = MarketCalendarsLoader.load(configPath: configPath, environment: ProcessInfo.processInfo.environment).calendars
        return quotes.map { $0.withMarketTimeZone(from: calendars) }
    }
}
