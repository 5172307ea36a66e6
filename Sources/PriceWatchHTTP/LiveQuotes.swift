import PriceWatchCore
import Synchronization

/// The dashboard's live feed: a consumer of the quote stream that keeps each symbol's latest
/// price, its previous close (for the change), its day's volume and the day's points (for the sparkline) and pushes every poll
/// to the browsers listening by server-sent events.
///
/// Bounded everywhere: at most ``maximumPointsPerSymbol`` points per symbol (thinned by half
/// when full), at most ``maximumListeners`` listeners, and each listener's queue keeps only
/// its newest events (a slow browser misses updates, it never holds memory or a poll).
///
/// The day's sparkline comes from the stored five-minute candles; these points add only what
/// arrived after the last of them (or, without a store, stand in for the day). So a few
/// points per symbol do: at 512 a 10,000-symbol daemon grew by about 2 MB a poll until it held
/// 80 MB of points (docs/benchmarks.md, "The daemon as run").
public final class LiveQuotes: QuoteConsumer, Sendable {
    public static let maximumPointsPerSymbol = 32
    public static let maximumListeners = 32
    static let eventsPerListener = 16

    struct Series {
        var day: Int64
        var points: [HistoryPoint] = []
        /// The previous close the latest quote carried, when it carried one.
        var previousClose: ExactDecimal?
        /// The day's volume the latest quote reported; nil when it reported none.
        var dayVolume: ExactDecimal?

        /// Adds a newer quote in place (a new day starts over); at `maximumPoints` the points
        /// are thinned by half, keeping the first and the latest.
        mutating func add(_ quote: Quote, maximumPoints: Int) {
            let quoteDay = LiveQuotes.day(of: quote)
            if day != quoteDay { self = Series(day: quoteDay) }
            if let last = points.last, last.time >= quote.time { return }
            points.append(HistoryPoint(time: quote.time, price: quote.price))
            if let previousClose = quote.previousClose { self.previousClose = previousClose }
            dayVolume = quote.dayVolume
            if points.count > maximumPoints {
                let last = points[points.count - 1]
                points = points.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                if points.last != last { points.append(last) }
            }
        }
    }

    struct State {
        var series: [String: Series] = [:]
        var listeners: [Int: AsyncStream<String>.Continuation] = [:]
        var nextListener = 0
        /// Counts the polls received: what the dashboard's rendered page was made from.
        var version = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Records the poll's quotes and tells every listener; accepts nothing (data health is the
    /// rule evaluator's business).
    public func receive(_ poll: PolledQuotes) async -> QuoteReceipt {
        let listeners = state.withLock { state -> [AsyncStream<String>.Continuation] in
            for quote in poll.quotes {
                state.series[quote.symbol, default: Series(day: Self.day(of: quote))].add(quote, maximumPoints: Self.maximumPointsPerSymbol)
            }
            state.version += 1
            return Array(state.listeners.values)
        }
        // The event is written only for someone: with no browser listening, a poll of 50,000
        // quotes costs the feed its points alone.
        guard !listeners.isEmpty else { return .none }
        let event = Self.event(provider: poll.provider, time: poll.time, quotes: poll.quotes.sorted { $0.symbol < $1.symbol })
        for listener in listeners { listener.yield(event) }
        return .none
    }

    /// Changes with every poll received: a page rendered at one version holds until the next.
    public var version: Int { state.withLock { $0.version } }

    /// The day's points of `symbol` (the UTC day of its latest quote), oldest first.
    public func dayPoints(of symbol: String) -> [HistoryPoint] {
        state.withLock { $0.series[symbol]?.points ?? [] }
    }

    /// The previous close of `symbol`'s latest quote of the day, when it carried one.
    public func previousClose(of symbol: String) -> ExactDecimal? {
        state.withLock { $0.series[symbol]?.previousClose }
    }

    /// The volume traded in the day of `symbol`'s latest quote, when that quote reported one
    /// (``Quote/dayVolume``: nil for providers that report none, never taken for 0).
    public func dayVolume(of symbol: String) -> ExactDecimal? {
        state.withLock { $0.series[symbol]?.dayVolume }
    }

    /// A stream of server-sent event payloads; `nil` when too many listen already. It ends when
    /// the consumer of it stops iterating (the connection closes).
    public func listen() -> AsyncStream<String>? {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(Self.eventsPerListener))
        let id: Int? = state.withLock { state in
            guard state.listeners.count < Self.maximumListeners else { return nil }
            let id = state.nextListener
            state.nextListener += 1
            state.listeners[id] = continuation
            return id
        }
        guard let id else { return nil }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every listener's stream (shutdown).
    public func finishListeners() {
        let listeners = state.withLock { state in
            defer { state.listeners = [:] }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.finish() }
    }

    /// A price as the dashboard writes it, first render and live updates alike: at least two
    /// decimals, as `watch` and `quote` write it (`225.70`, `0.00001234`).
    static func priceText(_ price: ExactDecimal) -> String { price.formatted(minimumFractionDigits: 2) }

    /// The UTC day of a quote: a symbol's points are those of its latest quote's day.
    private static func day(of quote: Quote) -> Int64 {
        quote.time.milliseconds / 86_400_000
    }

    /// One poll as a server-sent event: `event: poll` and a JSON line of its quotes, each
    /// price as the page shows it (``priceText(_:)``), so a live update never changes its format.
    static func event(provider: String, time: Timestamp, quotes: [Quote]) -> String {
        let items = quotes.map { "{\"symbol\":\(JSONText.string($0.symbol)),\"price\":\(JSONText.string(priceText($0.price)))}" }
        return "event: poll\ndata: {\"provider\":\(JSONText.string(provider)),\"time\":\(JSONText.string(time.rfc3339)),"
            + "\"quotes\":[\(items.joined(separator: ","))]}\n\n"
    }
}
