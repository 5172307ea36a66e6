/// What a service documents about its free tier: the most symbols one request may carry and
/// how many requests a minute it allows. The polling policy builds each provider's token
/// bucket and batches from these; providers themselves never wait.
public protocol ProviderLimits {
    /// The most symbols one request (one ``PriceWatchCore/QuoteProvider/fetch(_:)``) may carry.
    static var maximumBatchSize: Int { get }
    /// The documented (or, where the service documents nothing, a conservative) number of
    /// requests a minute on the free tier.
    static var requestsPerMinute: Int { get }
}
