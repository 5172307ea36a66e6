/// Classifies each symbol of one poll for ``DataHealth``: fresh, not fresh (and why), or not
/// expected (its market is not in regular trading, or the symbol is parked as unknown). Pure;
/// it remembers the last market state each symbol's quote reported.
public struct PollHealthClassifier: Sendable, Hashable {
    /// The last market state each symbol's quote reported.
    private var marketStates: [String: String?] = [:]

    public init() {}

    /// The observation of each of `symbols`, in order, for `poll`; `fresh`: symbols whose
    /// quote a consumer accepted; `parked`: symbols the policy does not ask for now.
    public mutating func classify(_ symbols: [String], poll: PolledQuotes, fresh: Set<String>,
                                  parked: Set<String>) -> [(symbol: String, observation: DataHealth.Observation)] {
        symbols.map { symbol in
            if case .success(let quote)? = poll.results[symbol] { marketStates[symbol] = quote.marketState }
            return (symbol, observation(of: symbol, poll: poll, fresh: fresh, parked: parked))
        }
    }

    private func observation(of symbol: String, poll: PolledQuotes, fresh: Set<String>, parked: Set<String>) -> DataHealth.Observation {
        if parked.contains(symbol) || !DataHealth.isTrading(marketStates[symbol] ?? nil) {
            return .notExpected
        }
        if fresh.contains(symbol) { return .fresh }
        switch poll.results[symbol] {
        case .success(let quote)?:
            return .notFresh(reason: "the latest quote, from \(quote.time), was already seen")
        case .failure(let error)?:
            return .notFresh(reason: error.message)
        case nil:
            if poll.unserved.contains(symbol), let failure = poll.failure {
                return .notFresh(reason: "the provider is failing: \(failure.message)")
            }
            return .notFresh(reason: "the provider returned no quote for it")
        }
    }
}
