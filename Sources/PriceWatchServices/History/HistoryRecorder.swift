import Logging
import PriceWatchCore

/// Keeps the intraday history of every watched symbol from what the daemon already polls: a
/// ``QuoteConsumer`` that folds each poll's quotes into one-minute candles in the store
/// (``CandleStore/recordQuotes(_:)``). Quotes that ``QuoteAcceptance`` rejects are left out.
///
/// It never judges quotes (the rule evaluator does) and returns ``QuoteReceipt/none``. A poll
/// with no quotes writes nothing. A store failure is logged once per episode (a warning when
/// recording starts failing, an info line when it works again) and never reaches the poller
/// or the other consumers: a gap in the chart, not a stopped daemon.
public actor HistoryRecorder: QuoteConsumer {
    private let store: any CandleStore
    private let logger: Logger
    private var failing = false

    public init(store: any CandleStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    public func receive(_ poll: PolledQuotes) async -> QuoteReceipt {
        // What the evaluator rejects (a price not above zero, a time more than five minutes
        // ahead of the poll) is not history either; repeats fold into their candle unchanged.
        let quotes = poll.quotes.filter { quote in
            if case .rejected = QuoteAcceptance.decide(quote, lastAccepted: nil, now: poll.time) { return false }
            return true
        }
        guard !quotes.isEmpty else { return .none }
        do {
            try await store.recordQuotes(quotes)
            if failing {
                failing = false
                logger.info("price history is recorded again")
            }
        } catch is CancellationError {
            return .none
        } catch {
            if !failing {
                failing = true
                logger.warning("could not record price history of provider '\(poll.provider)': \(error); charts will have a gap")
            }
        }
        return .none
    }
}
