/// The phases of one poll, timed by ``ProviderPoller`` into
/// `pricewatch_poll_phase_duration_seconds` (docs/http.md), so a slow cycle says where its
/// time went.
public enum PollPhase: String, Sendable, CaseIterable {
    /// The market-aware plan of the tick: which symbols to ask for.
    case plan
    /// From the first request to the last answer: batches, rate-limit waits, retries and
    /// failover included.
    case fetch
    /// Every consumer of the poll, concurrently: rules evaluated and their states, alerts,
    /// candles and paper fills committed to the store.
    case consume
    /// The per-symbol data-health classification and its log lines.
    case health
}
