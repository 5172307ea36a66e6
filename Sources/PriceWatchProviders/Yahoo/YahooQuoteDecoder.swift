import PriceWatchCore

/// Decodes Yahoo Finance answers of `/v7/finance/quote?symbols=A,B` (a batch).
///
/// Pure: an HTTP response in, quotes or errors out. Rules (docs/configuration.md, "Providers", yahoo):
/// - the price is `regularMarketPrice` at `regularMarketTime` (epoch seconds), rounded to the
///   instrument's `priceHint` (8 digits when there is none or it is outside 0...8); `regularMarketPreviousClose` is the
///   previous close;
/// - minor-unit currencies are converted exactly: `GBp` to `GBP`, `ZAc` to `ZAR`, `ILA` to
///   `ILS` (the price divided by 100);
/// - a requested symbol missing from `result` is `unknownSymbol` (Yahoo leaves them out);
///   an entry without a positive price or a time is `malformedResponse` for that symbol only.
public enum YahooQuoteDecoder {
    public static let endpoint = "yahoo v7 quote"

    public static func decode(_ response: HTTPResponse, requested: [String]) throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        try decode(response, requested: requested, scanning: true)
    }

    /// `scanning: false` decodes every answer the general way (for the tests that hold the
    /// scanner to it).
    package static func decode(_ response: HTTPResponse, requested: [String],
                       scanning: Bool) throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        guard response.status == 200 else {
            throw ProviderAnswer.failure(response, endpoint: endpoint, detail: YahooErrorDecoder.description(response))
        }
        let entries: [YahooWire.QuoteEntry]
        if scanning, let scanned = ProviderAnswer.scanned(response, YahooWire.QuoteEntry.scanned) {
            entries = scanned
        } else {
            let document = try ProviderAnswer.decode(YahooWire.QuoteAnswer.self, response, endpoint: endpoint, expected: "an object")
            guard let results = document.quoteResponse?.value?.result?.value else {
                let detail = YahooErrorDecoder.description(response) ?? "no quoteResponse.result"
                throw ProviderError(.malformedResponse, "\(endpoint): expected quoteResponse.result, found \(detail)")
            }
            entries = results.compactMap(\.value)
        }
        var byUpperSymbol: [String: YahooWire.QuoteEntry] = [:]
        byUpperSymbol.reserveCapacity(entries.count)
        for entry in entries {
            if let symbol = entry.symbol.text { byUpperSymbol[UppercaseText.uppercased(symbol)] = entry }
        }
        var answers: [String: Result<Quote, ProviderError>] = [:]
        answers.reserveCapacity(requested.count)
        for symbol in requested {
            guard let entry = byUpperSymbol[UppercaseText.uppercased(symbol)] else {
                answers[symbol] = .failure(ProviderError(.unknownSymbol, "yahoo does not know the symbol \(symbol)"))
                continue
            }
            answers[symbol] = quote(entry, symbol: symbol)
        }
        return answers
    }

    /// One `result` entry as a quote for `symbol` (as the caller wrote it).
    static func quote(_ entry: YahooWire.QuoteEntry, symbol: String) -> Result<Quote, ProviderError> {
        let raw = YahooPrices(currency: entry.currency.text, priceHint: entry.priceHint.integer)
        guard let price = raw.price(entry.regularMarketPrice.number) else {
            return .failure(ProviderError(.malformedResponse,
                                          "\(endpoint): \(symbol): expected a positive regularMarketPrice, found \(entry.regularMarketPrice.described())"))
        }
        guard let seconds = entry.regularMarketTime.integer, seconds > 0 else {
            return .failure(ProviderError(.malformedResponse,
                                          "\(endpoint): \(symbol): expected regularMarketTime in epoch seconds, found \(entry.regularMarketTime.described())"))
        }
        return .success(Quote(symbol: symbol, price: price, time: Timestamp(seconds: seconds),
                              previousClose: raw.price(entry.regularMarketPreviousClose.number),
                              currency: raw.currency, exchange: entry.exchange.text,
                              marketState: entry.marketState.text,
                              exchangeTimeZone: entry.exchangeTimezoneName.text,
                              dayVolume: ProviderPrice.volume(entry.regularMarketVolume.number)))
    }
}

/// Yahoo's price precision and minor-unit currencies, shared by the quote and chart decoders.
struct YahooPrices {
    /// The major currency and the divisor from the quoted unit (`GBp` pence: 100).
    static let minorUnits: [String: String] = ["GBp": "GBP", "GBX": "GBP", "ZAc": "ZAR", "ZAC": "ZAR", "ILA": "ILS"]

    let currency: String?
    let isMinorUnit: Bool
    let fractionDigits: Int

    init(currency: String?, priceHint: Int64?) {
        if let currency, let major = Self.minorUnits[currency] {
            self.currency = major
            isMinorUnit = true
        } else {
            self.currency = currency
            isMinorUnit = false
        }
        // A hint outside 0...8 is nonsense, not an instruction to round to whole units.
        let hint = priceHint.flatMap { (0...Int64(ExactDecimal.scale)).contains($0) ? Int($0) : nil } ?? ExactDecimal.scale
        // Minor units are divided by 100 afterwards: keep two digits for that, exactly.
        fractionDigits = min(max(hint, 0), ExactDecimal.scale - (isMinorUnit ? 2 : 0))
    }

    /// A positive float rounded to the hint, in the major unit; `nil` when not a positive price.
    func price(_ value: Double?) -> ExactDecimal? {
        guard let rounded = ProviderPrice.positive(value, fractionDigits: fractionDigits) else { return nil }
        guard isMinorUnit else { return rounded }
        // Rounded to at most 6 digits, so the scaled value is a multiple of 100: exact.
        let major = ExactDecimal(scaled: rounded.scaled / 100)
        return major.isPositive ? major : nil
    }
}
