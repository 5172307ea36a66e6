/// The rate budget a provider's requests draw from, kept outside the provider (the daemon's
/// per-provider token buckets, `requests_per_minute`).
///
/// The poller takes one request of the budget for each batch it asks a provider for; a provider
/// that sends more than one request for a batch (Yahoo's chart fallback: one request per symbol)
/// takes one more for each further request from this budget before sending it, so together they
/// never send more than the provider's rate.
///
/// Contract: ``acquire(for:)`` returns when provider `name` may send one more request (at once
/// for a provider without a limit, or one the budget does not know); it throws
/// `CancellationError` when the task is cancelled while waiting. It never fails otherwise.
public protocol ProviderRequestBudget: Sendable {
    func acquire(for provider: String) async throws
}

/// No limit: for commands that send a handful of requests once (`pricewatch quote`), and tests.
public struct UnlimitedRequestBudget: ProviderRequestBudget {
    public init() {}

    public func acquire(for provider: String) async throws {}
}
