import FoundationEssentials
import PriceWatchCore

/// How `pricewatch quote` prints quotes: JSON Lines exactly as `docs/commands.md` says, or a table.
enum QuoteRendering {
    /// `{"symbol":…,"provider":…,"price":…,"currency":…,"time":…,"previous_close":…,"exchange":…,"market_state":…}`
    static func jsonLine(_ quote: Quote, provider: String) -> String {
        var writer = JSONWriter()
        writer.string("symbol", quote.symbol)
        writer.string("provider", provider)
        writer.number("price", quote.price)
        writer.string("currency", quote.currency)
        writer.time("time", quote.time)
        writer.number("previous_close", quote.previousClose)
        writer.string("exchange", quote.exchange)
        writer.string("market_state", quote.marketState)
        return writer.result
    }

    /// A header and one row per quote, columns aligned; numbers right-aligned, with at least
    /// two fractional digits; `CHANGE` is the percent change from the previous close.
    /// Times in `zone`, or with `marketZones` each in its quote's exchange zone (UTC when it has
    /// none); RFC 3339 in UTC otherwise.
    static func table(_ quotes: [Quote], zone: TimeZone? = nil, marketZones: Bool = false) -> [String] {
        let header = ["SYMBOL", "PRICE", "PREV_CLOSE", "CHANGE", "CURRENCY", "TIME", "EXCHANGE", "STATE"]
        let rightAligned: Set<Int> = [1, 2, 3]
        let rows = quotes.map { quote -> [String] in
            let change = quote.previousClose.map { base -> String in
                guard let percent = quote.price.percentChange(from: base, roundedTo: 2) else { return "out of range" }
                return (percent.isPositive ? "+" : "") + percent.formatted(minimumFractionDigits: 2) + "%"
            }
            return [quote.symbol, quote.price.formatted(minimumFractionDigits: 2),
                    quote.previousClose?.formatted(minimumFractionDigits: 2) ?? "-", change ?? "-",
                    quote.currency ?? "-", Self.time(quote, zone: zone, marketZones: marketZones), quote.exchange ?? "-", quote.marketState ?? "-"]
        }
        return TextTable.render(header: header, rows: rows, rightAligned: rightAligned)
    }
}

extension QuoteRendering {
    static func time(_ quote: Quote, zone: TimeZone?, marketZones: Bool) -> String {
        guard marketZones else { return LocalTimeText.stamp(quote.time, zone: zone) }
        let own = quote.exchangeTimeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")
        return LocalTimeText.stamp(quote.time, zone: own)
    }
}

/// Columns padded to their widest cell, two spaces apart, without trailing blanks.
enum TextTable {
    static func render(header: [String], rows: [[String]], rightAligned: Set<Int> = []) -> [String] {
        let all = [header] + rows.map { $0.map(ControlCharacters.escaped) }
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                if column > 0 { line += "  " }
                line += rightAligned.contains(column) ? padding + cell : cell + padding
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }
}
