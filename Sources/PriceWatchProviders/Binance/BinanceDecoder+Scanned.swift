extension BinanceDecoder.Tickers {
    /// The tickers of a plain answer (an array of ticker objects, or one ticker with a symbol)
    /// read by ``JSONRecordScanner``, the daemon's path; `nil` when the answer needs the general
    /// decoder, which then reads it and words what is wrong exactly as before.
    static func scanned(_ body: [UInt8]) -> [BinanceDecoder.Ticker]? {
        body.withUnsafeBufferPointer { bytes in
            var scanner = JSONRecordScanner(bytes)
            var tickers: [BinanceDecoder.Ticker] = []
            if scanner.next(is: UInt8(ascii: "[")) {
                let read = scanner.elements { scanner in
                    guard let ticker = scannedTicker(&scanner) else { return false }
                    tickers.append(ticker)
                    return true
                }
                guard read else { return nil }
            } else {
                guard let one = scannedTicker(&scanner), one.symbol != nil else { return nil }
                tickers = [one]
            }
            return scanner.isAtEnd() ? tickers : nil
        }
    }

    /// The members a ticker is read from, in the order of ``scannedTicker(_:)``'s reads.
    private static let fieldNames: [StaticString] = ["symbol", "lastPrice", "prevClosePrice", "closeTime"]

    /// One ticker object, or `nil` to give up (not an object, a wanted field twice, a value the
    /// scanner leaves to the general decoder).
    private static func scannedTicker(_ scanner: inout JSONRecordScanner) -> BinanceDecoder.Ticker? {
        guard let found = scanner.record(fieldNames) else { return nil }
        func text(_ field: Int) -> JSONField<String>? { found[field].flatMap(JSONField<String>.init(scanned:)) }
        return BinanceDecoder.Ticker(symbol: text(0), lastPrice: text(1), prevClosePrice: text(2),
                                     closeTime: found[3].flatMap(JSONField<JSONNumber>.init(scanned:)))
    }
}
