import PriceWatchCore

/// `pricewatch quote`: current quotes from one provider, one request per batch of its size,
/// no retries; what it could not quote (for any reason but an unknown symbol) is asked of its
/// `fallback` providers, in order, each only for the symbols it serves.
public enum LookUpQuotes {
    /// Each of `symbols` (duplicates asked once) with its quote or error, in `symbols`' order,
    /// and the provider that gave the quote (the selected one, or a fallback). Provider text
    /// fields that are not data (a currency with a line break) are dropped; each goes to
    /// `problems`, one line for standard error, as does each symbol a fallback served.
    public static func fetch(_ symbols: [String], from selection: SelectProvider.Selection,
                             problems: (String) -> Void = { _ in }) async
        -> [(symbol: String, answer: Result<Quote, ProviderError>, source: String)] {
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
        var sources: [String: String] = [:]
        for fallback in selection.fallbacks {
            let wanted = unique.filter { symbol in
                guard case .failure(let error)? = answers[symbol], error.kind != .unknownSymbol else { return false }
                return fallback.serves(symbol)
            }
            for start in stride(from: 0, to: wanted.count, by: max(1, fallback.maximumBatchSize)) {
                let batch = Array(wanted[start..<min(start + max(1, fallback.maximumBatchSize), wanted.count)])
                guard let results = try? await fallback.fetch(batch) else { continue }
                for symbol in batch {
                    guard case .success(let quote)? = results[symbol], case .failure(let error)? = answers[symbol] else { continue }
                    problems("\(symbol): \(selection.name) could not quote it (\(ControlCharacters.escaped(error.message))); "
                             + "quoted by fallback '\(fallback.name)'")
                    answers[symbol] = .success(quote)
                    sources[symbol] = fallback.name
                }
            }
        }
        for problem in ProviderText.validate(&answers) { problems(problem.description) }
        return unique.map { ($0, answers[$0] ?? .failure(ProviderError(.transient, "no answer")), sources[$0] ?? selection.name) }
    }
}
