import PriceWatchCore

/// Mirrors the quote stream and the rules' states to the sinks that publish market state
/// (``MarketStatePublisher``: the `mqtt` sink for Home Assistant): after each poll, every such
/// sink of the ``SinkRegistry`` is told the watched symbols and rules of the current
/// configuration, the poll's prices, and each rule's state as stored (fired for some symbol,
/// or armed). The sinks publish only what changed, on their own threads.
///
/// The rule states are read after the poll's own evaluation may still be committing, so a
/// state can show one poll late; an alert's delivery marks its rule fired at once.
/// With no such sink configured, a poll costs one look at the registry.
public struct MarketStateConsumer: QuoteConsumer {
    private let sinks: SinkRegistry
    private let states: any RuleStateStore
    private let configuration: @Sendable () async -> Configuration

    public init(sinks: SinkRegistry, states: any RuleStateStore, configuration: @escaping @Sendable () async -> Configuration) {
        self.sinks = sinks
        self.states = states
        self.configuration = configuration
    }

    public func receive(_ poll: PolledQuotes) async -> QuoteReceipt {
        let publishers = sinks.all.sorted { $0.key < $1.key }.compactMap { Self.publisher($0.value) }
        guard !publishers.isEmpty else { return .none }
        let configuration = await configuration()
        let symbols = configuration.allSymbols.sorted()
        let rules = configuration.rules.map(\.id)
        var fired = Dictionary(rules.map { ($0, false) }, uniquingKeysWith: { first, _ in first })
        // A store that cannot answer now leaves the states as last published.
        let stored = try? await states.ruleStates()
        for (key, value) in stored ?? [:] where value.state.phase == .fired && fired[key.rule] != nil {
            fired[key.rule] = true
        }
        let quotes = poll.quotes
        for publisher in publishers {
            publisher.watch(symbols: symbols, rules: rules)
            publisher.publish(prices: quotes)
            if stored != nil { publisher.publish(ruleStates: fired) }
        }
        return .none
    }

    /// The publisher behind `sink`, through the metrics wrapper.
    static func publisher(_ sink: any NotificationSink) -> (any MarketStatePublisher)? {
        if let publisher = sink as? any MarketStatePublisher { return publisher }
        if let measured = sink as? MeasuredNotificationSink { return publisher(measured.wrapped) }
        return nil
    }
}
