import PriceWatchConfig
import PriceWatchCore
import PriceWatchStore

/// The `pricewatch paper` use cases: they write accounts, orders and cancellations into the
/// state database the daemon uses (as `requeue` does), and read the ledger back as reports.
/// The daemon's ``PaperFillConsumer`` fills the orders.
public enum PaperTrading {
    /// Why a paper command failed: one line for the operator.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The main file could not give the state's location; the diagnostics were reported.
        case configuration
        /// No paper account has the name asked for.
        case unknownAccount(String)
        case message(String)

        public var description: String {
            switch self {
            case .configuration: "the configuration names no usable state database"
            case .unknownAccount(let name): PaperLedgerError.unknownAccount(name).description
            case .message(let text): text
            }
        }
    }

    /// Opens `account` (idempotent: the same opening again answers the stored account).
    public static func open(_ account: PaperAccount, configPath: String,
                            report: ([Diagnostic]) -> Void) async -> Result<PaperAccount, Failure> {
        await withStore(configPath: configPath, create: true, report: report) { store in
            try await store.openPaperAccount(account)
        }
    }

    /// Places `order` (idempotent by its id). A sale beyond the position is refused unless the
    /// account allows short selling (``PaperSaleLimit``): the daemon could only reject it. When
    /// no rule or watched portfolio of the configuration at `configPath` (read with
    /// `environment`) makes the daemon poll the symbol, the order is placed with a warning
    /// given to `report`: it cannot fill until something does.
    public static func place(_ order: PaperOrder, configPath: String, environment: [String: String],
                             report: ([Diagnostic]) -> Void) async -> Result<PaperOrderRecord, Failure> {
        let placed = await withStore(configPath: configPath, create: false, report: report) { store in
            let account = try await account(order.account, in: store)
            let orders = try await store.paperOrders(account: order.account)
            // A retry of a stored order answers it (or the conflict) as it did: no new check.
            if !orders.contains(where: { $0.order.id == order.id }) {
                let book = PaperBook(postings: try await store.paperPostings(account: order.account))
                let open = orders.filter { $0.outcome == nil }.map(\.order)
                if let refusal = PaperSaleLimit.refusal(of: order, account: account, book: book, openOrders: open) {
                    throw Failure.message(refusal)
                }
            }
            return try await store.placePaperOrder(order)
        }
        if case .success = placed, let warning = unpolledWarning(order.symbol, configPath: configPath,
                                                                 environment: environment) {
            report([warning])
        }
        return placed
    }

    /// The warning for an order on `symbol` when the configuration makes the daemon poll no
    /// such symbol, nil when something polls it.
    static func unpolledWarning(_ symbol: String, configPath: String, environment: [String: String]) -> Diagnostic? {
        // Errors elsewhere (a secret this command cannot read) leave the rules as they are.
        guard let configuration = ConfigurationLoader.load(mainFile: configPath, environment: environment,
                                                           schemas: AdapterCatalog.schemas).configuration else {
            return .warning("cannot tell whether the daemon polls \(symbol): the configuration does not load "
                + "(run `pricewatch check`); an order fills only while a rule or watched portfolio polls its symbol",
                path: configPath)
        }
        guard !configuration.allSymbols.contains(symbol) else { return nil }
        return .warning("no rule or watched portfolio makes the daemon poll \(symbol): the order cannot fill until "
            + "one does (a rule on \(symbol) with a threshold that never fires is enough)", path: configPath)
    }

    /// Cancels the open order `orderID` of `account` at `now`; cancelling a cancelled order
    /// again answers it; a filled or rejected order cannot be cancelled.
    public static func cancel(account: String, orderID: String, now: Timestamp, configPath: String,
                              report: ([Diagnostic]) -> Void) async -> Result<PaperOrderRecord, Failure> {
        await withStore(configPath: configPath, create: false, report: report) { store in
            guard try await store.paperAccounts().contains(where: { $0.name == account }) else {
                throw PaperLedgerError.unknownAccount(account)
            }
            guard var record = try await store.paperOrders(account: account).first(where: { $0.order.id == orderID })
            else { throw PaperLedgerError.unknownOrder(orderID) }
            if record.outcome == nil {
                _ = try await store.book([.cancelled(account: account, orderID: orderID, at: now)], notifications: [],
                                         now: now)
                guard let stored = try await store.paperOrders(account: account).first(where: { $0.order.id == orderID })
                else { throw PaperLedgerError.unknownOrder(orderID) }
                record = stored
            }
            switch record.outcome {
            case .cancelled?: return record
            default: throw Failure.message("order \(orderID) of paper account \(account) is \(record.status): it cannot be cancelled")
            }
        }
    }

    /// The statement of `name` at the latest stored prices.
    public static func statement(account name: String, configPath: String,
                                 report: ([Diagnostic]) -> Void) async -> Result<PaperReports.Statement, Failure> {
        await withStore(configPath: configPath, create: false, report: report) { store in
            try await statement(of: try await account(name, in: store), store: store)
        }
    }

    /// The daily equity and period returns of `name` up to `today`.
    public static func history(account name: String, today: PaperDay, configPath: String,
                               report: ([Diagnostic]) -> Void) async -> Result<PaperReports.History, Failure> {
        await withStore(configPath: configPath, create: false, report: report) { store in
            let account = try await account(name, in: store)
            let postings = try await store.paperPostings(account: name)
            var symbols = Set<String>()
            for posting in postings { if case .position(let symbol) = posting.ledger { symbols.insert(symbol) } }
            var history: [String: PaperEquitySeries.PriceHistory] = [:]
            for symbol in symbols { history[symbol] = try await store.priceHistory(symbol: symbol) }
            let series = PaperEquitySeries.build(account: account, postings: postings, history: history,
                                                 latest: try await latestPrices(store), today: today)
            return PaperReports.history(account: account, series: series)
        }
    }

    /// Every account ranked by return, with equity converted to `currency` (the currency most
    /// accounts use when nil) through `rates` at `now`.
    public static func leaderboard(currency: String?, rates: any ExchangeRateSource, now: Timestamp, configPath: String,
                                   report: ([Diagnostic]) -> Void)
        async -> Result<(standings: [PaperReports.Standing], currency: String), Failure> {
        await withStore(configPath: configPath, create: false, report: report) { store in
            let accounts = try await store.paperAccounts()
            let target = currency?.uppercased() ?? PaperReports.defaultCurrency(of: accounts)
            var entries: [(statement: PaperReports.Statement, rate: ExchangeRate?)] = []
            for account in accounts {
                let statement = try await statement(of: account, store: store)
                let rate = account.currency == target ? nil
                    : await rates.rate(from: account.currency, to: target, at: now)
                entries.append((statement, rate))
            }
            return (PaperReports.leaderboard(entries, currency: target), target)
        }
    }

    /// The ledger check of every account (or of `name`): the problems found, empty when sound.
    public static func check(account name: String?, configPath: String,
                             report: ([Diagnostic]) -> Void) async -> Result<(accounts: Int, problems: [String]), Failure> {
        await withStore(configPath: configPath, create: false, report: report) { store in
            var accounts = try await store.paperAccounts()
            if let name {
                accounts = accounts.filter { $0.name == name }
                guard !accounts.isEmpty else { throw PaperLedgerError.unknownAccount(name) }
            }
            var problems: [String] = []
            for account in accounts {
                problems += PaperLedgerCheck.problems(account: account,
                                                      postings: try await store.paperPostings(account: account.name),
                                                      fills: try await store.paperFills(account: account.name))
            }
            return (accounts.count, problems)
        }
    }

    // MARK: - Support

    private static func account(_ name: String, in store: SQLiteAlertStore) async throws -> PaperAccount {
        guard let account = try await store.paperAccounts().first(where: { $0.name == name }) else {
            throw PaperLedgerError.unknownAccount(name)
        }
        return account
    }

    static func statement(of account: PaperAccount, store: SQLiteAlertStore) async throws -> PaperReports.Statement {
        PaperReports.statement(account: account, postings: try await store.paperPostings(account: account.name),
                               orders: try await store.paperOrders(account: account.name),
                               prices: try await latestPrices(store))
    }

    /// The newest stored price of every symbol, whichever provider gave it.
    private static func latestPrices(_ store: SQLiteAlertStore) async throws -> [String: ExactDecimal] {
        var newest: [String: HistoryPoint] = [:]
        for (key, point) in try await store.latestQuotes() where point.time >= (newest[key.symbol]?.time ?? point.time) {
            newest[key.symbol] = point
        }
        return newest.mapValues(\.price)
    }

    private static func withStore<T: Sendable>(configPath: String, create: Bool, report: ([Diagnostic]) -> Void,
                                               _ body: (SQLiteAlertStore) async throws -> T) async -> Result<T, Failure> {
        let (location, diagnostics) = ConfigurationLoader.stateLocation(mainFile: configPath, schemas: AdapterCatalog.schemas)
        report(diagnostics)
        guard let location else { return .failure(.configuration) }
        do {
            if !create {
                // Reading or ordering never creates a state database: open an account first.
                do {
                    _ = try SQLiteAlertStore.openReadOnly(path: location.statePath).close()
                } catch {
                    return .failure(.message("no paper account: \(error) (open one with `pricewatch paper open`)"))
                }
            }
            let store = try SQLiteAlertStore.open(path: location.statePath)
            defer { try? store.close() }
            return .success(try await body(store))
        } catch let failure as Failure {
            return .failure(failure)
        } catch PaperLedgerError.unknownAccount(let name) {
            return .failure(.unknownAccount(name))
        } catch {
            return .failure(.message("\(error)"))
        }
    }
}
