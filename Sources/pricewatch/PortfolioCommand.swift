import ArgumentParser
import FoundationEssentials
import PriceWatchApp
import PriceWatchCore
import PriceWatchPresentation

/// `pricewatch portfolio [value] [NAME] ...` and `pricewatch portfolio import NAME FILE`.
struct PortfolioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "portfolio",
        abstract: "Value portfolios, or import one from a Ghostfolio CSV.",
        subcommands: [PortfolioValue.self, PortfolioImport.self],
        defaultSubcommand: PortfolioValue.self)
}

/// `pricewatch portfolio [value] [NAME] [--rates ecb|frankfurter] [--format text|json|csv]`.
struct PortfolioValue: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "value",
        abstract: "Value the portfolios of portfolios.d at the latest recorded prices.",
        discussion: """
            Every portfolio (or NAME) of portfolios.d beside the main file, valued at the latest \
            prices the daemon recorded in the state database: per position quantity, cost (average \
            cost, fees included), price, value, day change, unrealised profit and its percent, the \
            value in the home currency and the weight, with the time and provider of every price; \
            cash; totals. Other currencies are converted with the ECB's reference rates when \
            --rates asks for them (fetched now), else with the currency pairs the daemon recorded \
            (USDEUR=X). A stale price (its market traded for longer than the configuration's \
            stale_after since it), or a missing price or rate, leaves the position out of the \
            totals with a note (docs/portfolios.md).
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, csv
    }

    @OptionGroup var config: ConfigOption

    @Argument(help: ArgumentHelp("Only this portfolio (its file name without .toml).", valueName: "name"))
    var name: String?

    @Option(help: ArgumentHelp("Convert other currencies with the ECB's reference rates, fetched now from ecb or frankfurter.", valueName: "source"))
    var rates: LookUpExchangeRate.Reference?

    // Only for tests: another address for the rate source.
    @Option(help: .hidden) var ratesURL: String?

    @Option(help: "Output format: text, json or csv.")
    var format: Format = .text

    // Only for tests and demos: the instant taken as now (RFC 3339). Documented in docs/portfolios.md.
    @Option(help: .hidden)
    var now: String?

    func validate() throws {
        if let now, Timestamp(parsing: now) == nil { throw ValidationError("--now: expected an RFC 3339 time, found '\(now)'") }
    }

    func run() async throws {
        let instant = now.flatMap(Timestamp.init(parsing:)) ?? Alerts.now()
        let outcome = await ValuePortfolio.run(configPath: config.path, environment: ProcessInfo.processInfo.environment, name: name,
                                               rates: rates, ratesURL: ratesURL, now: instant, report: StandardOutput.report)
        switch outcome {
        case .configurationFailed:
            throw ExitCode(1)
        case .unknownPortfolio(let available):
            let known = available.isEmpty ? "portfolios.d has none" : "portfolios: " + available.joined(separator: ", ")
            throw StandardOutput.failure("error: no portfolio named '\(name ?? "")'; \(known)")
        case .failed(let message):
            throw StandardOutput.failure("error: \(message)")
        case .valued(let valuations):
            var output = StandardOutput.output()
            for valuation in valuations {
                switch format {
                case .text: output.line(PortfolioRendering.text(valuation).dropLast().description)
                case .json: output.line(PortfolioRendering.json(valuation).dropLast().description)
                case .csv: output.line(PortfolioRendering.csv(valuation).dropLast().description)
                }
            }
            output.flush()
        }
    }
}

/// `pricewatch portfolio import NAME FILE.csv [--currency CODE] [--replace]`.
struct PortfolioImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Write portfolios.d/NAME.toml from a Ghostfolio activities CSV.",
        discussion: """
            Reads the CSV Ghostfolio imports and exports (columns Date, Symbol or Code, Type, \
            Quantity, UnitPrice, Fee, Currency; Ghostfolio's other names for them too): BUY and \
            SELL become lots, DIVIDEND and INTEREST add to cash, FEE takes from it, ITEM and \
            LIABILITY are skipped with a note. Writes portfolios.d/NAME.toml beside the main file \
            (mode 0640) and checks it (docs/portfolios.md).
            """)

    @OptionGroup var config: ConfigOption

    @Argument(help: ArgumentHelp("The portfolio's name (the file's name without .toml).", valueName: "name"))
    var name: String

    @Argument(help: ArgumentHelp("The CSV file.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The home currency (default: the one most rows use).", valueName: "code"))
    var currency: String?

    @Flag(help: "Overwrite an existing portfolio file.")
    var replace = false

    func validate() throws {
        if let currency, currency.count != 3 || !currency.allSatisfy({ $0.isUppercase && $0.isASCII }) {
            throw ValidationError("--currency: expected a three-letter ISO 4217 code such as EUR, found '\(currency)'")
        }
    }

    func run() throws {
        switch ImportPortfolio.run(configPath: config.path, name: name, file: file, currency: currency, replace: replace) {
        case .failed(let message):
            throw StandardOutput.failure("error: \(message)")
        case .written(let path, let lots, let notes):
            var output = StandardOutput.output()
            output.line("wrote \(path): \(lots) lots")
            for note in notes { output.line("note: \(note)") }
            output.flush()
        }
    }
}
