import Logging
import PriceWatchCore
import Synchronization

/// A consumer of the quote stream that says, once, when a provider's symbols start coming from
/// a fallback and when they come back (``QuoteSources``): one `notice` line per change of
/// source, naming the symbols (the first ten, and how many more), and the counters
/// `pricewatch_quotes_served_total{provider,source}` and
/// `pricewatch_quote_source_changes_total{provider,source}`. It accepts nothing.
public final class QuoteSourceConsumer: QuoteConsumer {
    private let sources = Mutex(QuoteSources())
    private let metrics: DaemonMetrics
    private let logger: Logger

    public init(metrics: DaemonMetrics, logger: Logger) {
        self.metrics = metrics
        self.logger = logger
    }

    public func receive(_ poll: PolledQuotes) async -> QuoteReceipt {
        let changes = sources.withLock { $0.record(poll) }
        var served: [String: Int] = [:]
        if poll.servedBy.isEmpty {
            // Every quote from the provider itself: counted without a lookup per quote.
            served[poll.provider] = poll.quotes.count
        } else {
            for quote in poll.quotes { served[poll.servedBy[quote.symbol] ?? poll.provider, default: 0] += 1 }
        }
        for (source, count) in served { metrics.quotesServed(provider: poll.provider, source: source, count: count) }
        for change in changes {
            metrics.quoteSourceChanged(provider: change.provider, source: change.source, count: change.symbols.count)
            let shown = change.symbols.prefix(10).joined(separator: ", ")
                + (change.symbols.count > 10 ? " and \(change.symbols.count - 10) more" : "")
            let now = change.source == change.provider ? "come from '\(change.source)' again" : "now come from fallback '\(change.source)'"
            logger.notice("quotes of \(shown) for provider '\(change.provider)' \(now) (were from '\(change.previous)')",
                          metadata: ["provider": "\(change.provider)", "source": "\(change.source)"])
        }
        return .none
    }
}
