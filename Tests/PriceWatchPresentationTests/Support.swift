import Foundation
import PriceWatchTestKit
import PriceWatchCore

/// A decimal from a literal that is known to be valid (test tables only).
func dec(_ text: String) -> ExactDecimal {
    guard let value = ExactDecimal(text) else { preconditionFailure("invalid decimal literal in a test table: \(text)") }
    return value
}

/// An instant `ms` milliseconds after the epoch.
func at(_ ms: Int64) -> Timestamp { Timestamp(milliseconds: ms) }

/// A one-minute candle (or of `interval`) at `seconds` after the epoch.
func candle(_ seconds: Int64, _ open: String, _ high: String, _ low: String, _ close: String,
            interval: CandleInterval = .oneMinute) -> Candle {
    Candle(time: Timestamp(seconds: seconds), interval: interval, open: dec(open), high: dec(high), low: dec(low), close: dec(close))
}

/// The recorded monthly closes of `Tests/Fixtures/history/stocks-monthly-2000-2010.csv`, as
/// daily candles by symbol (the digest's golden files are made from them).
enum MonthlyPrices {
    static func candles() throws -> [String: [Candle]] {
        let text = try String(contentsOfFile: RepositoryFiles.path("Tests/Fixtures/history/stocks-monthly-2000-2010.csv"), encoding: .utf8)
        var bySymbol: [String: [Candle]] = [:]
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count >= 3, let exact = ExactDecimal(fields[2]), let time = Timestamp(parsing: fields[1] + "T00:00:00Z") else { continue }
            bySymbol[fields[0], default: []].append(Candle(time: time, interval: .oneDay, open: exact, high: exact, low: exact, close: exact))
        }
        return bySymbol
    }
}
