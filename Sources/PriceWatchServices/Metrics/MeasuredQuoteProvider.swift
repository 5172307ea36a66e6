import PriceWatchCore

/// A provider that records each request's duration and failure kind in ``DaemonMetrics`` and
/// otherwise is the provider it wraps.
public struct MeasuredQuoteProvider: QuoteProvider {
    public let wrapped: any QuoteProvider
    let metrics: DaemonMetrics
    let clock: ContinuousClock

    public init(_ wrapped: any QuoteProvider, metrics: DaemonMetrics, clock: ContinuousClock = ContinuousClock()) {
        self.wrapped = wrapped
        self.metrics = metrics
        self.clock = clock
    }

    public var name: String { wrapped.name }
    public var maximumBatchSize: Int { wrapped.maximumBatchSize }
    public var requestsPerMinute: Double? { wrapped.requestsPerMinute }
    public func serves(_ symbol: String) -> Bool { wrapped.serves(symbol) }

    public func fetch(_ symbols: [String]) async throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        let start = clock.now
        do {
            let results = try await wrapped.fetch(symbols)
            metrics.requested(provider: name, duration: start.duration(to: clock.now), error: nil)
            return results
        } catch {
            metrics.requested(provider: name, duration: start.duration(to: clock.now), error: error)
            throw error
        }
    }
}
