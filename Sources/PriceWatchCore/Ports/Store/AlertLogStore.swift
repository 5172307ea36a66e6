/// The alert log role of the store: what `pricewatch alerts` (and later an HTTP API) reads.
public protocol AlertLogStore: Sendable {
    /// The alert log since `since` (by alert time, newest last), with each alert's deliveries.
    func alerts(since: Timestamp?) async throws -> [AlertRecord]
}
