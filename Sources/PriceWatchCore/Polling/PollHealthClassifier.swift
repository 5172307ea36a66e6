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
            // One lookup of the symbol's result and one of its market state, in place: this
            // runs for every watched symbol at every poll.
            let result = poll.results[symbol]
            let marketState: String?
            if case .success(let quote)? = result {
                marketState = quote.marketState
                marketStates[symbol] = marketState
            } else {
                marketState = marketStates[symbol] ?? nil
            }
            return (symbol, observation(of: symbol, result: result, marketState: marketState, poll: poll, fresh: fresh, parked: parked))
        }
    }

    private func observation(of symbol: String, result: Result<Quote, ProviderError>?, marketState: String?, poll: PolledQuotes,
                             fresh: Set<String>, parked: Set<String>) -> DataHealth.Observation {
        if parked.contains(symbol) || !DataHealth.isTrading(marketState) {
            return .notExpected
        }
        if fresh.contains(symbol) { return .fresh }
        switch result {
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
