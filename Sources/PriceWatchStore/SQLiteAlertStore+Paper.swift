import GRDB
import PriceWatchCore

/// The paper ledger (``PaperLedgerStore``) in the state database; the tables are described in
/// `PaperLedgerMigration`.
extension SQLiteAlertStore: PaperLedgerStore {
    public func openPaperAccount(_ account: PaperAccount) async throws -> PaperAccount {
        let result: Result<PaperAccount, PaperLedgerError> = try await write("opening paper account \(account.name)") { db in
            if let stored = try PaperTables.account(named: account.name, in: db) {
                guard stored.isSameOpening(as: account) else {
                    return .failure(.conflict("paper account \(account.name) is already open with other settings "
                        + "(\(stored.startingCash) \(stored.currency))"))
                }
                return .success(stored)
            }
            try db.execute(sql: """
                INSERT INTO paper_account (name, currency, starting_cash, fee_flat, fee_percent, allow_short,
                                           allow_negative_cash, sinks, opened_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [account.name, account.currency, account.startingCash.scaled, account.fees.flat.scaled,
                                 account.fees.percent.scaled, account.allowsShortSelling ? 1 : 0,
                                 account.allowsNegativeCash ? 1 : 0, account.sinks.joined(separator: ","),
                                 account.openedAt.milliseconds])
            try PaperTables.insert(PaperPosting.opening(of: account), in: db)
            return .success(account)
        }
        return try result.get()
    }

    public func paperAccounts() async throws -> [PaperAccount] {
        try await read("reading paper accounts") { db in try PaperTables.accounts(in: db) }
    }

    public func placePaperOrder(_ order: PaperOrder) async throws -> PaperOrderRecord {
        let result: Result<PaperOrderRecord, PaperLedgerError> = try await write("placing paper order \(order.id)") { db in
            guard try PaperTables.account(named: order.account, in: db) != nil else {
                return .failure(.unknownAccount(order.account))
            }
            if let stored = try PaperTables.orders(account: order.account, id: order.id, in: db).first {
                guard stored.order.isSamePlacement(as: order) else {
                    return .failure(.conflict("order id \(order.id) of paper account \(order.account) is already used "
                        + "for another order (\(stored.order.side.rawValue) \(stored.order.quantity) \(stored.order.symbol))"))
                }
                return .success(stored)
            }
            try db.execute(sql: """
                INSERT INTO paper_order (account, id, symbol, side, quantity, limit_price, placed_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [order.account, order.id, order.symbol, order.side.rawValue, order.quantity.scaled,
                                 order.limit?.scaled, order.placedAt.milliseconds])
            return .success(PaperOrderRecord(order: order, outcome: nil))
        }
        return try result.get()
    }

    public func paperOrders(account: String?) async throws -> [PaperOrderRecord] {
        try await read("reading paper orders") { db in try PaperTables.orders(account: account, id: nil, in: db) }
    }

    public func openPaperOrders() async throws -> [PaperOrder] {
        try await read("reading open paper orders") { db in
            try PaperTables.orders(account: nil, id: nil, openOnly: true, in: db).map(\.order)
        }
    }

    public func paperPostings(account: String) async throws -> [PaperPosting] {
        try await read("reading the paper ledger of \(account)") { db in try PaperTables.postings(account: account, in: db) }
    }

    public func book(_ outcomes: [PaperOrderOutcome], notifications: [PaperFillNotice], now: Timestamp) async throws
        -> [PaperOrderOutcome] {
        guard !outcomes.isEmpty else { return [] }
        return try await write("booking \(outcomes.count) paper order outcome(s)") { db in
            var booked: [PaperOrderOutcome] = []
            var bookedFillIDs: Set<String> = []
            for outcome in outcomes {
                guard try PaperTables.insertOutcome(outcome, now: now, in: db) else { continue }
                if case .filled(let fill) = outcome {
                    try PaperTables.insert(fill.postings, in: db)
                    bookedFillIDs.insert("fill-\(fill.account)-\(fill.orderID)")
                }
                booked.append(outcome)
            }
            for notice in notifications where bookedFillIDs.contains(notice.notification.id) {
                if try NotificationTable.insert(notice.notification, createdAt: now, in: db) {
                    try DeliveryTable.insertPending(notificationID: notice.notification.id, sinks: notice.sinks, now: now,
                                                    in: db)
                }
            }
            return booked
        }
    }

    /// Every fill of `account`, in booking order (for the ledger check).
    public func paperFills(account: String) async throws -> [PaperFill] {
        try await read("reading the fills of \(account)") { db in
            try PaperTables.orders(account: account, id: nil, in: db).compactMap { record in
                if case .filled(let fill)? = record.outcome { return fill }
                return nil
            }
        }
    }

    /// Every stored price of `symbol` (from any provider), oldest first, for a paper account's
    /// equity history.
    public func priceHistory(symbol: String) async throws -> [(time: Timestamp, price: ExactDecimal)] {
        try await read("reading the prices of \(symbol)") { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT time, price FROM quote WHERE symbol = ? ORDER BY time",
                                           arguments: [symbol])
            var prices: [(time: Timestamp, price: ExactDecimal)] = []
            while let row = try rows.next() {
                prices.append((Timestamp(milliseconds: try row.decode(Int64.self, atIndex: 0)),
                               ExactDecimal(scaled: try row.decode(Int64.self, atIndex: 1))))
            }
            return prices
        }
    }
}

/// Row mapping of the paper tables.
enum PaperTables {
    static func account(named name: String, in db: Database) throws -> PaperAccount? {
        try accounts(in: db, name: name).first
    }

    static func accounts(in db: Database, name: String? = nil) throws -> [PaperAccount] {
        var sql = """
            SELECT name, currency, starting_cash, fee_flat, fee_percent, allow_short, allow_negative_cash, sinks,
                   opened_at FROM paper_account
            """
        var arguments: StatementArguments = []
        if let name {
            sql += " WHERE name = ?"
            arguments = [name]
        }
        sql += " ORDER BY name"
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        var accounts: [PaperAccount] = []
        while let row = try rows.next() {
            let sinks = try row.decode(String.self, atIndex: 7)
            accounts.append(PaperAccount(
                name: try row.decode(String.self, atIndex: 0),
                currency: try row.decode(String.self, atIndex: 1),
                startingCash: ExactDecimal(scaled: try row.decode(Int64.self, atIndex: 2)),
                fees: PaperFees(flat: ExactDecimal(scaled: try row.decode(Int64.self, atIndex: 3)),
                                percent: ExactDecimal(scaled: try row.decode(Int64.self, atIndex: 4))),
                allowsShortSelling: try row.decode(Int64.self, atIndex: 5) != 0,
                allowsNegativeCash: try row.decode(Int64.self, atIndex: 6) != 0,
                sinks: sinks.isEmpty ? [] : sinks.split(separator: ",").map(String.init),
                openedAt: Timestamp(milliseconds: try row.decode(Int64.self, atIndex: 8))))
        }
        return accounts
    }

    static func orders(account: String?, id: String?, openOnly: Bool = false, in db: Database) throws
        -> [PaperOrderRecord] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let account {
            conditions.append("o.account = ?")
            arguments += [account]
        }
        if let id {
            conditions.append("o.id = ?")
            arguments += [id]
        }
        if openOnly { conditions.append("x.status IS NULL") }
        let rows = try Row.fetchCursor(db, sql: """
            SELECT o.account, o.id, o.symbol, o.side, o.quantity, o.limit_price, o.placed_at,
                   x.status, x.reason, x.price, x.notional, x.fee, x.quote_time, x.provider, x.booked_at
            FROM paper_order o LEFT JOIN paper_outcome x ON x.account = o.account AND x.order_id = o.id
            \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            ORDER BY o.seq
            """, arguments: arguments)
        var records: [PaperOrderRecord] = []
        while let row = try rows.next() {
            let sideText = try row.decode(String.self, atIndex: 3)
            guard let side = PaperSide(rawValue: sideText) else {
                throw StoreFault.invalidValue(table: "paper_order", column: "side", value: sideText)
            }
            let order = PaperOrder(
                id: try row.decode(String.self, atIndex: 1),
                account: try row.decode(String.self, atIndex: 0),
                symbol: try row.decode(String.self, atIndex: 2),
                side: side,
                quantity: ExactDecimal(scaled: try row.decode(Int64.self, atIndex: 4)),
                limit: try row.decode(Int64?.self, atIndex: 5).map(ExactDecimal.init(scaled:)),
                placedAt: Timestamp(milliseconds: try row.decode(Int64.self, atIndex: 6)))
            var outcome: PaperOrderOutcome?
            if let status = try row.decode(String?.self, atIndex: 7) {
                let bookedAt = Timestamp(milliseconds: try row.decode(Int64.self, atIndex: 14))
                switch status {
                case "filled":
                    guard let price = try row.decode(Int64?.self, atIndex: 9),
                          let notional = try row.decode(Int64?.self, atIndex: 10),
                          let fee = try row.decode(Int64?.self, atIndex: 11),
                          let quoteTime = try row.decode(Int64?.self, atIndex: 12)
                    else { throw StoreFault.invalidValue(table: "paper_outcome", column: "price", value: "NULL") }
                    outcome = .filled(PaperFill(
                        orderID: order.id, account: order.account, symbol: order.symbol, side: order.side,
                        quantity: order.quantity, price: ExactDecimal(scaled: price),
                        notional: ExactDecimal(scaled: notional), fee: ExactDecimal(scaled: fee),
                        quoteTime: Timestamp(milliseconds: quoteTime), bookedAt: bookedAt,
                        provider: try row.decode(String?.self, atIndex: 13) ?? ""))
                case "rejected":
                    outcome = .rejected(account: order.account, orderID: order.id, reason: try row.decode(String?.self, atIndex: 8) ?? "",
                                        at: bookedAt)
                case "cancelled":
                    outcome = .cancelled(account: order.account, orderID: order.id, at: bookedAt)
                default:
                    throw StoreFault.invalidValue(table: "paper_outcome", column: "status", value: status)
                }
            }
            records.append(PaperOrderRecord(order: order, outcome: outcome))
        }
        return records
    }

    static func postings(account: String, in db: Database) throws -> [PaperPosting] {
        let rows = try Row.fetchCursor(db, sql: """
            SELECT entry, account, ledger, amount, quantity, time FROM paper_posting WHERE account = ? ORDER BY seq
            """, arguments: [account])
        var postings: [PaperPosting] = []
        while let row = try rows.next() {
            let ledgerText = try row.decode(String.self, atIndex: 2)
            guard let ledger = PaperPosting.Ledger(storedName: ledgerText) else {
                throw StoreFault.invalidValue(table: "paper_posting", column: "ledger", value: ledgerText)
            }
            postings.append(PaperPosting(
                entry: try row.decode(String.self, atIndex: 0), account: try row.decode(String.self, atIndex: 1),
                ledger: ledger, amount: ExactDecimal(scaled: try row.decode(Int64.self, atIndex: 3)),
                quantity: ExactDecimal(scaled: try row.decode(Int64.self, atIndex: 4)),
                time: Timestamp(milliseconds: try row.decode(Int64.self, atIndex: 5))))
        }
        return postings
    }

    static func insert(_ postings: [PaperPosting], in db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO paper_posting (entry, account, ledger, amount, quantity, time) VALUES (?, ?, ?, ?, ?, ?)
            """)
        for posting in postings {
            try statement.execute(arguments: [posting.entry, posting.account, posting.ledger.storedName,
                                              posting.amount.scaled, posting.quantity.scaled, posting.time.milliseconds])
        }
    }

    /// Inserts the outcome unless its order has one; false when it had one (or the order is unknown).
    static func insertOutcome(_ outcome: PaperOrderOutcome, now: Timestamp, in db: Database) throws -> Bool {
        let account = outcome.account
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM paper_order WHERE account = ? AND id = ?)",
                                arguments: [account, outcome.orderID]) == true else { return false }
        switch outcome {
        case .filled(let fill):
            try db.execute(sql: """
                INSERT INTO paper_outcome (account, order_id, status, price, notional, fee, quote_time, provider, booked_at)
                VALUES (?, ?, 'filled', ?, ?, ?, ?, ?, ?)
                ON CONFLICT (account, order_id) DO NOTHING
                """, arguments: [account, fill.orderID, fill.price.scaled, fill.notional.scaled, fill.fee.scaled,
                                 fill.quoteTime.milliseconds, fill.provider, fill.bookedAt.milliseconds])
        case .rejected(_, let id, let reason, let at):
            try db.execute(sql: """
                INSERT INTO paper_outcome (account, order_id, status, reason, booked_at) VALUES (?, ?, 'rejected', ?, ?)
                ON CONFLICT (account, order_id) DO NOTHING
                """, arguments: [account, id, reason, at.milliseconds])
        case .cancelled(_, let id, let at):
            try db.execute(sql: """
                INSERT INTO paper_outcome (account, order_id, status, booked_at) VALUES (?, ?, 'cancelled', ?)
                ON CONFLICT (account, order_id) DO NOTHING
                """, arguments: [account, id, at.milliseconds])
        }
        return db.changesCount > 0
    }
}
