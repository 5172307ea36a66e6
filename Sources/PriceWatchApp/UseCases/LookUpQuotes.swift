import PriceWatchCore

/// `pricewatch quote`: current quotes from one provider, one request per batch of its size,
/// no retries.
public enum LookUpQuotes {
    /// Each of `symbols` (duplicates asked once) with its quote or error, in `symbols`' order.
    /// Provider text fields that are not data (a currency with a line break) are dropped; each
    /// goes to `problems`, one line for standard error.
    public static func fetch(_ symbols: [String], from selection: SelectProvider.Selection,
                             problems: (String) -> Void = { _ in }) async
        -> [(symbol: String, answer: Result<Quote, ProviderError>)] {
        var unique: [String] = []
        for symbol in symbols where !unique.contains(symbol) { unique.append(symbol) }
        let batchSize = max(1, selection.provider.maximumBatchSize)
        var answers: [String: Result<Quote, ProviderError>] = [:]
        for start in stride(from: 0, to: unique.count, by: batchSize) {
            let batch = Array(unique[start..<min(start + batchSize, unique.count)])
            do {
                let results = try await selection.provider.fetch(batch)
                for symbol in batch {
                    answers[symbol] = results[symbol]
                        ?? .failure(ProviderError(.transient, "provider '\(selection.name)' gave no quote"))
                }
            } catch {
                for symbol in batch { answers[symbol] = .failure(error) }
            }
        }
        for problem in ProviderText.validate(&answers) { problems(problem.description) }
        return unique.map { ($0, answers[$0] ?? .failure(ProviderError(.transient, "no answer"))) }
    }
}
