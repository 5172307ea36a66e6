import ArgumentParser
import FoundationEssentials
import PriceWatchApp
import PriceWatchCore
import PriceWatchPresentation

/// `pricewatch paper ...`: paper trading with fake money (docs/paper-trading.md).
struct Paper: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paper",
        abstract: "Trade fake money at real prices: accounts, orders, statements, returns, a leaderboard.",
        discussion: """
            Commands write into the state database the daemon uses; a running daemon fills orders \
            at the first fresh quote of the symbol after the order was placed (market orders) or \
            when the price reaches the limit, while the symbol's market is open. Every command is \
            idempotent: placing an order again with the same --order-id books nothing.
            """,
        subcommands: [PaperOpen.self, PaperBuy.self, PaperSell.self, PaperCancel.self, PaperShow.self,
                      PaperHistory.self, PaperLeaderboard.self, PaperCheck.self])

    /// Prints a rendered block (which ends with a newline).
    static func print(_ block: String) {
        var output = StandardOutput.output()
        // Drop the final line feed byte only: a CSV line ends in CR LF, one Character in Swift.
        output.line(block.utf8.last == UInt8(ascii: "\n") ? String(decoding: block.utf8.dropLast(), as: UTF8.self) : block)
        output.flush()
    }

    static func decimal(_ text: String, _ option: String, positive: Bool = true) throws -> ExactDecimal {
        let value: ExactDecimal
        do {
            value = try ExactDecimal(parsing: text)
        } catch {
            throw ValidationError("\(option): \(error.description)")
        }
        if positive, !value.isPositive { throw ValidationError("\(option): expected a number above 0, found \(text)") }
        if !positive, value < .zero { throw ValidationError("\(option): expected a number of 0 or more, found \(text)") }
        return value
    }

    static func name(_ text: String, _ what: String) throws {
        guard PaperAccount.isValidName(text) else {
            throw ValidationError("\(what) '\(text)': expected 1 to 64 letters, digits, '-', '_' or '.'")
        }
    }

    static func result<T>(_ result: Result<T, PaperTrading.Failure>) throws -> T {
        switch result {
        case .success(let value): return value
        case .failure(.configuration): throw ExitCode(1)
        case .failure(let failure): throw StandardOutput.failure("error: \(failure.description)")
        }
    }
}

/// `--format text|json|csv` of the leaderboard.
enum LeaderboardFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, csv
}

struct PaperOpen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open", abstract: "Open a paper account with a starting balance of fake money.")

    @OptionGroup var config: ConfigOption
    @Argument(help: "The account's name.") var name: String
    @Option(help: ArgumentHelp("The starting balance.", valueName: "amount")) var cash: String
    @Option(help: ArgumentHelp("The account's currency (ISO 4217).", valueName: "code")) var currency: String
    @Option(help: ArgumentHelp("A flat fee per fill, in the account's currency (default 0).", valueName: "amount"))
    var fee: String = "0"
    @Option(name: .customLong("fee-percent"),
            help: ArgumentHelp("A fee per fill in percent of its value (default 0).", valueName: "percent"))
    var feePercent: String = "0"
    @Flag(name: .customLong("allow-short"), help: "Let sells take a position below zero.") var allowShort = false
    @Flag(name: .customLong("allow-negative-cash"), help: "Let buys take cash below zero.") var allowNegativeCash = false
    @Option(name: .customLong("notify"), help: ArgumentHelp("A configured sink to announce fills to (repeatable).",
                                                            valueName: "sink"))
    var sinks: [String] = []
    @Option(help: "Output format.") var format: OutputFormat = .text

    func validate() throws {
        try Paper.name(name, "account")
        _ = try Paper.decimal(cash, "--cash")
        _ = try Paper.decimal(fee, "--fee", positive: false)
        _ = try Paper.decimal(feePercent, "--fee-percent", positive: false)
        guard PaperAccount.isValidCurrency(currency) else {
            throw ValidationError("--currency: expected a three-letter ISO 4217 code, found '\(currency)'")
        }
    }

    func run() async throws {
        let account = PaperAccount(
            name: name, currency: currency, startingCash: try Paper.decimal(cash, "--cash"),
            fees: PaperFees(flat: try Paper.decimal(fee, "--fee", positive: false),
                            percent: try Paper.decimal(feePercent, "--fee-percent", positive: false)),
            allowsShortSelling: allowShort, allowsNegativeCash: allowNegativeCash, sinks: sinks, openedAt: Alerts.now())
        let opened = try Paper.result(await PaperTrading.open(account, configPath: config.path, report: StandardOutput.report))
        switch format {
        case .text:
            Paper.print("paper account \(opened.name) open: \(PaperRendering.money(opened.startingCash)) \(opened.currency)")
        case .json:
            var writer = JSONWriter()
            writer.string("account", opened.name)
            writer.string("currency", opened.currency)
            writer.number("starting_cash", opened.startingCash)
            writer.time("opened_at", opened.openedAt)
            Paper.print(writer.result)
        }
    }
}

/// The arguments of `paper buy` and `paper sell`.
struct PaperOrderArguments: ParsableArguments {
    @OptionGroup var config: ConfigOption
    @Argument(help: "The account's name.") var name: String
    @Argument(help: "The symbol, as the provider knows it.") var symbol: String
    @Argument(help: "How many units.") var quantity: String
    @Option(help: ArgumentHelp("Fill only at this price or better (a limit order).", valueName: "price"))
    var limit: String?
    @Option(name: .customLong("order-id"),
            help: ArgumentHelp("Your id for the order: a retry with the same id books nothing (default: generated).",
                               valueName: "id"))
    var orderID: String?
    @Option(help: "Output format.") var format: OutputFormat = .text

    func validate() throws {
        try Paper.name(name, "account")
        _ = try Paper.decimal(quantity, "quantity")
        if let limit { _ = try Paper.decimal(limit, "--limit") }
        if let orderID { try Paper.name(orderID, "--order-id") }
        guard !symbol.isEmpty, symbol.utf8.count <= 64, !symbol.contains(where: { $0.isWhitespace || $0 == "," }) else {
            throw ValidationError("symbol '\(symbol)': expected 1 to 64 characters without spaces or commas")
        }
    }

    func place(_ side: PaperSide) async throws {
        let order = PaperOrder(
            id: orderID ?? "o-" + UUID().uuidString.lowercased().prefix(13).replacingOccurrences(of: "-", with: ""),
            account: name, symbol: symbol, side: side, quantity: try Paper.decimal(quantity, "quantity"),
            limit: try limit.map { try Paper.decimal($0, "--limit") }, placedAt: Alerts.now())
        let record = try Paper.result(await PaperTrading.place(order, configPath: config.path,
                                                                  environment: ProcessInfo.processInfo.environment,
                                                                  report: StandardOutput.report))
        switch format {
        case .text: Paper.print("order " + PaperRendering.orderLine(record))
        case .json: Paper.print(PaperRendering.orderJSON(record))
        }
    }
}

struct PaperBuy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "buy", abstract: "Place a buy order.")
    @OptionGroup var order: PaperOrderArguments
    func run() async throws { try await order.place(.buy) }
}

struct PaperSell: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sell", abstract: "Place a sell order.")
    @OptionGroup var order: PaperOrderArguments
    func run() async throws { try await order.place(.sell) }
}

struct PaperCancel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Cancel an open order.")
    @OptionGroup var config: ConfigOption
    @Argument(help: "The account's name.") var name: String
    @Argument(help: "The order's id.") var order: String
    @Option(help: "Output format.") var format: OutputFormat = .text

    func run() async throws {
        let record = try Paper.result(await PaperTrading.cancel(account: name, orderID: order, now: Alerts.now(),
                                                                configPath: config.path, report: StandardOutput.report))
        switch format {
        case .text: Paper.print("order " + PaperRendering.orderLine(record))
        case .json: Paper.print(PaperRendering.orderJSON(record))
        }
    }
}

struct PaperShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show an account's cash, positions, P&L, return since start and orders.")
    @OptionGroup var config: ConfigOption
    @Argument(help: "The account's name.") var name: String
    @Option(help: "Output format.") var format: OutputFormat = .text

    func run() async throws {
        let statement = try Paper.result(await PaperTrading.statement(account: name, configPath: config.path,
                                                                      report: StandardOutput.report))
        Paper.print(format == .json ? PaperRendering.json(statement) : PaperRendering.text(statement))
    }
}

struct PaperHistory: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show an account's daily equity, time- and money-weighted returns and maximum drawdown.")
    @OptionGroup var config: ConfigOption
    @Argument(help: "The account's name.") var name: String
    @Option(help: "Output format.") var format: OutputFormat = .text

    func run() async throws {
        let history = try Paper.result(await PaperTrading.history(account: name, today: PaperDay(Alerts.now()),
                                                                  configPath: config.path, report: StandardOutput.report))
        Paper.print(format == .json ? PaperRendering.json(history) : PaperRendering.text(history))
    }
}

struct PaperLeaderboard: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leaderboard", abstract: "Rank the accounts by return since start.")
    @OptionGroup var config: ConfigOption
    @Option(help: ArgumentHelp("Show equity in this currency (default: the one most accounts use).", valueName: "code"))
    var currency: String?
    @Option(help: "Output format.") var format: LeaderboardFormat = .text
    @Option(help: ArgumentHelp("Convert other currencies with the ECB's reference rates, fetched now from ecb or frankfurter (default: none; accounts in another currency are then not convertible).",
                               valueName: "source"))
    var rates: LookUpExchangeRate.Reference?
    // Only for tests: another address for the rate source.
    @Option(help: .hidden) var ratesURL: String?

    func validate() throws {
        if let currency, !PaperAccount.isValidCurrency(currency) {
            throw ValidationError("--currency: expected a three-letter ISO 4217 code, found '\(currency)'")
        }
    }

    func run() async throws {
        var source: any ExchangeRateSource = IdentityExchangeRates()
        if let rates {
            switch await LookUpExchangeRate.book(source: rates, url: ratesURL) {
            case .success(let book): source = book
            case .failure(let failure): throw StandardOutput.failure("error: \(failure.description)")
            }
        }
        let board = try Paper.result(await PaperTrading.leaderboard(
            currency: currency, rates: source, now: Alerts.now(), configPath: config.path,
            report: StandardOutput.report))
        switch format {
        case .text: Paper.print(PaperRendering.leaderboardText(board.standings, currency: board.currency))
        case .json: Paper.print(PaperRendering.leaderboardJSON(board.standings, currency: board.currency))
        case .csv: Paper.print(PaperRendering.leaderboardCSV(board.standings, currency: board.currency))
        }
    }
}

struct PaperCheck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Check the paper ledger: double entry, fills against postings, balances.")
    @OptionGroup var config: ConfigOption
    @Argument(help: "Only this account.") var name: String?
    @Option(help: "Output format.") var format: OutputFormat = .text

    func run() async throws {
        let result = try Paper.result(await PaperTrading.check(account: name, configPath: config.path,
                                                               report: StandardOutput.report))
        switch format {
        case .text:
            let lines = result.problems + ["\(result.accounts) paper account(s) checked, \(result.problems.count) problem(s)"]
            Paper.print(lines.joined(separator: "\n"))
        case .json:
            var writer = JSONWriter()
            writer.integer("accounts", result.accounts)
            writer.objects("problems", result.problems.map(JSONWriter.quoted))
            Paper.print(writer.result)
        }
        if !result.problems.isEmpty { throw ExitCode(1) }
    }
}
