/// What one poll of one provider brought: published to every ``QuoteConsumer``.
public struct PolledQuotes: Sendable {
    /// The polled provider: whose symbols these are and whose rules they feed.
    public var provider: String
    /// Each fetched symbol's answer: its quote (with its own time), or the error the provider
    /// gave for it. Symbols nobody could be asked for are absent (see ``unserved``).
    public let results: [String: Result<Quote, ProviderError>]
    /// Per symbol, the fallback provider that gave the quote while ``provider`` failed.
    public var servedBy: [String: String]
    /// The provider's own failure in this poll (after its retries), nil when every batch it was
    /// asked for was answered.
    public var failure: ProviderError?
    /// Symbols that got no answer at all: neither the provider nor a fallback served them.
    public var unserved: Set<String>
    /// The wall-clock time at the end of the fetch (the evaluation's "now").
    public var time: Timestamp

    public init(provider: String, results: [String: Result<Quote, ProviderError>], servedBy: [String: String] = [:],
                failure: ProviderError? = nil, unserved: Set<String> = [], time: Timestamp) {
        self.provider = provider
        self.results = results
        // Once per poll, not once per consumer: every consumer reads them, and at 25,000
        // symbols a poll building and sorting them was 6% of the daemon's CPU.
        self.quotes = results.values.compactMap { try? $0.get() }.sorted { ($0.time, $0.symbol) < ($1.time, $1.symbol) }
        self.servedBy = servedBy
        self.failure = failure
        self.unserved = unserved
        self.time = time
    }

    /// The quotes of ``results``, in time order (then by symbol).
    public let quotes: [Quote]
}

/// What a consumer did with a poll, for the poller's data health.
public struct QuoteReceipt: Sendable, Hashable {
    /// The symbols whose quote the consumer accepted as new data under ``QuoteAcceptance``
    /// (not a repeat, not rejected).
    public var acceptedSymbols: Set<String>

    public init(acceptedSymbols: Set<String> = []) {
        self.acceptedSymbols = acceptedSymbols
    }

    /// Nothing to report: the consumer does not judge freshness.
    public static let none = QuoteReceipt()
}

/// A receiver of the quote stream: the rule evaluator is one; history, portfolio valuation,
/// paper-trade fills and a dashboard are others. The poller publishes every poll to every
/// consumer it was given; adding a consumer never changes the poller.
///
/// The contract:
///
/// - ``receive(_:)`` is called once per finished poll of each provider, with that poll's
///   results, including the failures (``PolledQuotes/failure``, ``PolledQuotes/unserved``,
///   per-symbol errors), so a consumer can tell "no news" from "no data".
/// - The polls of one provider arrive one at a time, in order: the provider's next poll waits
///   until every consumer has returned (back-pressure, no queue to grow). Polls of different
///   providers may arrive concurrently. Consumers of one poll run concurrently with each other.
/// - A consumer never throws: it handles (and logs) its own failures; one consumer's failure
///   never keeps a poll from another.
/// - It returns promptly: slow work (I/O) belongs in its own task, or it delays the polls.
/// - The returned ``QuoteReceipt`` names the symbols whose quote it accepted as new under
///   ``QuoteAcceptance``; data health counts a symbol fresh when any consumer accepted it.
///   A consumer that does not judge quotes returns ``QuoteReceipt/none``.
/// - Quotes served by a fallback are in ``PolledQuotes/results`` under the polled provider's
///   name; ``PolledQuotes/servedBy`` says who served them.
public protocol QuoteConsumer: Sendable {
    /// Takes one poll's results; see the protocol's contract.
    func receive(_ poll: PolledQuotes) async -> QuoteReceipt
}
