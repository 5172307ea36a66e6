extension YahooWire.QuoteEntry {
    /// The entries of `quoteResponse.result` read by ``JSONRecordScanner``, the daemon's path for
    /// a plain answer; `nil` when the answer needs the general decoder (which then reads it, and
    /// says what is wrong with it, exactly as before).
    static func scanned(_ body: [UInt8]) -> [YahooWire.QuoteEntry]? {
        body.withUnsafeBufferPointer { bytes in
            var scanner = JSONRecordScanner(bytes)
            var entries: [YahooWire.QuoteEntry]?
            let read = scanner.members { scanner, key in
                guard JSONRecordScanner.key(key, is: "quoteResponse") else { return scanner.skipValue() }
                guard entries == nil else { return false }
                return scanner.members { scanner, key in
                    guard JSONRecordScanner.key(key, is: "result") else { return scanner.skipValue() }
                    guard entries == nil else { return false }
                    var list: [YahooWire.QuoteEntry] = []
                    let complete = scanner.elements { scanner in
                        guard let entry = scannedEntry(&scanner) else { return false }
                        list.append(entry)
                        return true
                    }
                    entries = list
                    return complete
                }
            }
            guard read, scanner.isAtEnd() else { return nil }
            return entries
        }
    }

    /// The members an entry is read from, in the order of ``scannedEntry(_:)``'s reads.
    private static let fieldNames: [StaticString] = [
        "symbol", "currency", "priceHint", "regularMarketPrice", "regularMarketTime", "regularMarketPreviousClose",
        "regularMarketVolume", "exchange", "marketState", "exchangeTimezoneName",
    ]

    /// One entry object, or `nil` to give up (not an object, a wanted field twice, a value the
    /// scanner leaves to the general decoder).
    private static func scannedEntry(_ scanner: inout JSONRecordScanner) -> YahooWire.QuoteEntry? {
        guard let found = scanner.record(fieldNames) else { return nil }
        func text(_ field: Int) -> JSONField<String>? { found[field].flatMap(JSONField<String>.init(scanned:)) }
        func number(_ field: Int) -> JSONField<JSONNumber>? { found[field].flatMap(JSONField<JSONNumber>.init(scanned:)) }
        return YahooWire.QuoteEntry(symbol: text(0), currency: text(1), priceHint: number(2), regularMarketPrice: number(3),
                                    regularMarketTime: number(4), regularMarketPreviousClose: number(5),
                                    regularMarketVolume: number(6), exchange: text(7), marketState: text(8),
                                    exchangeTimezoneName: text(9))
    }
}
