/// Which source serves each symbol of each polled provider: the provider itself or one of
/// its fallbacks (`docs/operations.md`, "Polling policy"). Pure: ``record(_:)`` is given each
/// poll and answers what changed, so the daemon says once when quotes move to another source
/// and once when they come back, never at every poll.
public struct QuoteSources: Sendable {
    /// One change: `symbols` of `provider` now come from `source` (which is `provider` itself
    /// when they came back), after `previous`.
    public struct Change: Sendable, Hashable {
        public var provider: String
        public var symbols: [String]
        public var source: String
        public var previous: String

        public init(provider: String, symbols: [String], source: String, previous: String) {
            self.provider = provider
            self.symbols = symbols
            self.source = source
            self.previous = previous
        }
    }

    /// The current source per provider and symbol; a symbol not here is served by its provider.
    private var current: [String: [String: String]] = [:]

    public init() {}

    /// The source of `symbol` of `provider` now.
    public func source(of symbol: String, provider: String) -> String {
        current[provider]?[symbol] ?? provider
    }

    /// Takes one poll: each quoted symbol's source is its fallback (``PolledQuotes/servedBy``)
    /// or the provider. Returns the changes, grouped by where from and where to, symbols
    /// sorted; a symbol without a quote in this poll keeps its source.
    public mutating func record(_ poll: PolledQuotes) -> [Change] {
        // The usual poll: the provider served everything, as before. Nothing to look at per quote.
        if poll.servedBy.isEmpty && current[poll.provider] == nil { return [] }
        var moved: [String: (previous: String, source: String, symbols: [String])] = [:]
        var sources = current[poll.provider] ?? [:]
        for quote in poll.quotes {
            let source = poll.servedBy[quote.symbol] ?? poll.provider
            let previous = sources[quote.symbol] ?? poll.provider
            guard source != previous else { continue }
            sources[quote.symbol] = source == poll.provider ? nil : source
            moved[previous + "\u{0}" + source, default: (previous, source, [])].symbols.append(quote.symbol)
        }
        current[poll.provider] = sources.isEmpty ? nil : sources
        return moved.values
            .map { Change(provider: poll.provider, symbols: $0.symbols.sorted(), source: $0.source, previous: $0.previous) }
            .sorted { ($0.previous, $0.source) < ($1.previous, $1.source) }
    }
}
