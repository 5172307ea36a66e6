import PriceWatchCore

/// Decodes Yahoo Finance `/v1/finance/search?q=` answers: `quotes[]` with `symbol`,
/// `longname` (else `shortname`), `exchange` and `quoteType`. Entries without a symbol
/// (companies that are not listed) are left out.
public enum YahooSearchDecoder {
    public static let endpoint = "yahoo v1 search"

    public static func decode(_ response: HTTPResponse) throws(ProviderError) -> [SymbolMatch] {
        guard response.status == 200 else {
            throw ProviderAnswer.failure(response, endpoint: endpoint, detail: YahooErrorDecoder.description(response))
        }
        let document = try ProviderAnswer.decode(YahooWire.SearchAnswer.self, response, endpoint: endpoint, expected: "an object")
        guard let quotes = document.quotes?.value else {
            throw ProviderError(.malformedResponse, "\(endpoint): expected a quotes array")
        }
        return quotes.compactMap { entry in
            guard let entry = entry.value, let symbol = entry.symbol.text else { return nil }
            return SymbolMatch(symbol: symbol, name: entry.longname.text ?? entry.shortname.text,
                               exchange: entry.exchange.text, type: entry.quoteType.text)
        }
    }
}
