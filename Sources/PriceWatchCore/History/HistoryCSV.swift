import Foundation

/// Candles in the backtest CSV format (`symbol,time,price,previous_close,currency`), so the
/// output of `pricewatch history --format csv` is input to `pricewatch backtest --data`.
///
/// One row per candle: `time` is the candle's start in UTC (RFC 3339), `price` its close.
/// `previous_close` is the last close of the previous trading day in `timeZone` (the market's
/// zone; UTC when unknown): for the first day, `firstPreviousClose` (the provider's close before
/// the range), else empty. Daily candles take the previous candle's close. A candle made from
/// stored quotes that carried a previous close takes the one of its last such quote instead
/// (`quotedPreviousCloses`), so the rows replay to the alerts those quotes gave.
public enum HistoryCSV {
    public static let header = "symbol,time,price,previous_close,currency"

    public static func rows(symbol: String, candles: [Candle], currency: String?, firstPreviousClose: ExactDecimal?,
                            quotedPreviousCloses: [QuotedPreviousClose] = [], timeZone: TimeZone) -> [String] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        func day(_ time: Timestamp) -> DateComponents {
            calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(time.milliseconds) / 1000))
        }
        var rows: [String] = [header]
        var previousClose = firstPreviousClose
        var currentDay: DateComponents?
        var lastClose: ExactDecimal?
        let quoted = quotedPreviousCloses.sorted { $0.time < $1.time }
        var nextQuoted = 0
        for candle in candles.sorted(by: { $0.time < $1.time }) {
            // The previous close of the candle's last quote that carried one.
            let end = Timestamp(milliseconds: candle.time.milliseconds &+ candle.interval.seconds &* 1000)
            var carried: ExactDecimal?
            while nextQuoted < quoted.count, quoted[nextQuoted].time < end {
                if quoted[nextQuoted].time >= candle.time { carried = quoted[nextQuoted].previousClose }
                nextQuoted += 1
            }
            if candle.interval == .oneDay {
                if let lastClose { previousClose = lastClose }
            } else {
                let candleDay = day(candle.time)
                if let currentDay, currentDay != candleDay, let lastClose { previousClose = lastClose }
                currentDay = candleDay
            }
            rows.append([
                field(symbol), candle.time.rfc3339, candle.close.formatted(minimumFractionDigits: 2),
                (carried ?? previousClose)?.formatted(minimumFractionDigits: 2) ?? "", field(currency ?? ""),
            ].joined(separator: ","))
            lastClose = candle.close
        }
        return rows
    }

    /// A field quoted when it holds a comma, a quote or a line break.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
