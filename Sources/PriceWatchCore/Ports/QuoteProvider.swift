/// A source of quotes: one service (Yahoo, Coinbase, …) or a replayed file.
///
/// Contract:
/// - ``fetch(_:)`` asks for at most ``maximumBatchSize`` symbols and returns one
///   ``SymbolResult`` per symbol it has an answer for. One bad symbol never fails the batch:
///   it gets `.failure` while the others get quotes. A symbol that is simply missing from the
///   result has no new quote this time.
/// - A failure of the whole request throws a ``ProviderError`` that says whether a retry can
///   help and carries `Retry-After` when the service gave one.
/// - Providers never retry, sleep or rate-limit by themselves: the polling policy does that,
///   once, for every provider.
/// - Prices are already rounded to the precision the service publishes for the instrument.
/// - Providers honour task cancellation promptly.
public protocol QuoteProvider: Sendable {
    /// The configured name (`[providers.NAME]`).
    var name: String { get }
    /// The most symbols one ``fetch(_:)`` may carry.
    var maximumBatchSize: Int { get }
    /// The request rate the service's free tier allows, in requests per minute; nil when it
    /// documents no limit. The polling policy spaces requests by it unless the configuration
    /// sets `requests_per_minute`.
    var requestsPerMinute: Double? { get }
    /// Whether the service can quote `symbol` as written (a crypto exchange does not list
    /// `AAPL`): as a fallback, a provider is asked only for the symbols it serves. The default
    /// serves everything.
    func serves(_ symbol: String) -> Bool
    /// Fetches the latest quote of each symbol.
    func fetch(_ symbols: [String]) async throws(ProviderError) -> [String: Result<Quote, ProviderError>]
}

extension QuoteProvider {
    /// No documented limit.
    public var requestsPerMinute: Double? { nil }

    /// Every symbol.
    public func serves(_ symbol: String) -> Bool { true }
}

/// Why a provider could not give a quote. The message names what failed and never contains a
/// secret (API keys are redacted by the transport).
public struct ProviderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure, which decides what the polling policy does next.
    public enum Kind: String, Sendable, Hashable {
        /// A network error, timeout or server error: a retry may succeed.
        case transient
        /// The service asked us to slow down (HTTP 429).
        case rateLimited
        /// The service does not know the symbol; retrying will not help.
        case unknownSymbol
        /// The answer could not be understood (HTML where JSON was expected, missing fields).
        case malformedResponse
        /// Anything else a retry cannot fix (bad API key, forbidden).
        case permanent
    }

    public var kind: Kind
    public var message: String
    /// How long the service asked us to wait, in seconds, when it said.
    public var retryAfterSeconds: Int64?

    public init(_ kind: Kind, _ message: String, retryAfterSeconds: Int64? = nil) {
        self.kind = kind
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// Whether trying again later can help.
    public var isRetryable: Bool { kind == .transient || kind == .rateLimited || kind == .malformedResponse }

    public var description: String { message }
}
