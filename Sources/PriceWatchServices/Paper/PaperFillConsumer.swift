import Logging
import PriceWatchCore

/// Fills paper-trading orders from the quote stream: a ``QuoteConsumer`` of the daemon.
///
/// On every poll it takes the fresh quotes (newer than the last quote it saw of the symbol),
/// reads the open orders of those symbols placed before the poll, and decides each in placing
/// order with ``PaperFillDecision`` against its account's balances derived from the ledger
/// (earlier fills of the same poll applied), only while the symbol's market is open
/// (``MarketHours``, asked at the quote's time; an unknown market counts as open). The fills
/// and rejections of the poll, and the `fill` notifications of accounts that name sinks, are
/// booked in one transaction (``PaperLedgerStore/book(_:notifications:now:)``), which skips any
/// order that already has an outcome: a restart that replays quotes books nothing twice.
///
/// Polls are processed one at a time, even from different providers, so two polls never spend
/// the same cash. A store failure is logged; the orders stay open for the next fresh quote.
public actor PaperFillConsumer: QuoteConsumer {
    private let store: any PaperLedgerStore
    private let markets: any MarketHours
    private let doorbell: Doorbell?
    private let logger: Logger
    private var lastSeen: [String: Timestamp] = [:]
    private var tail: Task<Void, Never>?

    /// - Parameters:
    ///   - doorbell: rung when a fill notification was queued (the dispatcher's), nil for none.
    public init(store: any PaperLedgerStore, markets: any MarketHours, doorbell: Doorbell?, logger: Logger) {
        self.store = store
        self.markets = markets
        self.doorbell = doorbell
        self.logger = logger
    }

    public func receive(_ poll: PolledQuotes) async -> QuoteReceipt {
        let previous = tail
        let task = Task { [poll] in
            await previous?.value
            await self.process(poll)
        }
        tail = task
        await task.value
        return .none
    }

    private func process(_ poll: PolledQuotes) async {
        do {
            // The open orders first: usually none, and then a poll of 50,000 quotes only
            // advances what was seen, without gathering them.
            let open: [PaperOrder]
            do {
                open = try await store.openPaperOrders()
            } catch {
                advanceLastSeen(poll, keeping: [])
                throw error
            }
            let fresh = advanceLastSeen(poll, keeping: Set(open.lazy.map(\.symbol)))
            let orders = open.filter { fresh[$0.symbol] != nil && $0.placedAt < poll.time }
            guard !orders.isEmpty else { return }
            let accounts = Dictionary(try await store.paperAccounts().map { ($0.name, $0) }) { first, _ in first }
            var books: [String: PaperBook] = [:]
            var outcomes: [PaperOrderOutcome] = []
            var notices: [PaperFillNotice] = []
            for order in orders {
                guard let quote = fresh[order.symbol], let account = accounts[order.account] else { continue }
                if books[account.name] == nil {
                    books[account.name] = PaperBook(postings: try await store.paperPostings(account: account.name))
                }
                let book = books[account.name] ?? PaperBook()
                let decision = PaperFillDecision.decide(order: order, account: account, book: book, quote: quote,
                                                        provider: poll.servedBy[quote.symbol] ?? poll.provider,
                                                        bookedAt: poll.time, marketOpen: isOpen(quote))
                switch decision {
                case .wait:
                    continue
                case .fill(let fill):
                    books[account.name]?.apply(fill)
                    outcomes.append(.filled(fill))
                    if !account.sinks.isEmpty {
                        let content = PaperFillMessage(fill: fill, currency: account.currency)
                        notices.append(PaperFillNotice(
                            notification: OutgoingNotification(id: content.notificationID, time: fill.quoteTime,
                                                               content: content),
                            sinks: account.sinks))
                    }
                case .reject(let reason):
                    outcomes.append(.rejected(account: account.name, orderID: order.id, reason: reason, at: poll.time))
                }
            }
            let booked = try await store.book(outcomes, notifications: notices, now: poll.time)
            for outcome in booked { log(outcome) }
            if booked.contains(where: { if case .filled = $0 { true } else { false } }), !notices.isEmpty {
                doorbell?.ring()
            }
        } catch {
            logger.error("paper trading: cannot fill orders: \(error)", metadata: ["provider": "\(poll.provider)"])
        }
    }

    /// Records the poll's quotes newer than the last seen of their symbols; returns those of
    /// the `symbols` asked for.
    @discardableResult
    private func advanceLastSeen(_ poll: PolledQuotes, keeping symbols: Set<String>) -> [String: Quote] {
        var fresh: [String: Quote] = [:]
        for quote in poll.quotes where quote.time > (lastSeen[quote.symbol] ?? Timestamp(milliseconds: .min)) {
            lastSeen[quote.symbol] = quote.time
            if symbols.contains(quote.symbol) { fresh[quote.symbol] = quote }
        }
        return fresh
    }

    private func isOpen(_ quote: Quote) -> Bool {
        guard let market = markets.market(ofSymbol: quote.symbol, exchange: quote.exchange) else { return true }
        return markets.status(of: market, at: quote.time).isOpen
    }

    private func log(_ outcome: PaperOrderOutcome) {
        switch outcome {
        case .filled(let fill):
            logger.info("paper \(fill.account): filled order \(fill.orderID): \(fill.side.rawValue) \(fill.quantity) \(fill.symbol) at \(fill.price)")
        case .rejected(let account, let id, let reason, _):
            logger.warning("paper \(account): rejected order \(id): \(reason)")
        case .cancelled:
            break
        }
    }
}
