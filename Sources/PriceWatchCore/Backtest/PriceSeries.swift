/// Rows of the backtest CSV (`docs/rules.md`, "Backtest data (CSV)"), stored column by column so a
/// million rows take about 32 MB.
///
/// Rows keep file order; ``timeOrder`` gives the processing order (by time, rows with equal
/// times in file order).
public struct PriceSeries: Sendable {
    /// Distinct symbols; rows refer to them by index.
    public internal(set) var symbols: [String] = []
    /// Distinct currencies; rows refer to them by index, -1 for none.
    public internal(set) var currencies: [String] = []
    var symbolIDs: [Int32] = []
    var currencyIDs: [Int32] = []
    var times: [Int64] = []
    var prices: [Int64] = []
    /// Scaled previous close; 0 when absent.
    var previousCloses: [Int64] = []
    var isTimeOrdered = true

    public init() {}

    public var count: Int { times.count }

    /// The row at `index` (file order) as a quote.
    public func quote(at index: Int) -> Quote {
        let currency = currencyIDs[index]
        let previousClose = previousCloses[index]
        return Quote(symbol: symbols[Int(symbolIDs[index])],
                     price: ExactDecimal(scaled: prices[index]),
                     time: Timestamp(milliseconds: times[index]),
                     previousClose: previousClose > 0 ? ExactDecimal(scaled: previousClose) : nil,
                     currency: currency >= 0 ? currencies[Int(currency)] : nil)
    }

    /// The row at `index` (file order).
    public func row(at index: Int) -> PriceRow {
        PriceRow(symbol: symbolIDs[index], time: times[index], price: prices[index],
                 previousClose: previousCloses[index], currency: currencyIDs[index])
    }

    /// Drops every row, keeping the symbol and currency tables (a streaming reader hands its
    /// rows on chunk by chunk).
    mutating func removeAllRows() {
        symbolIDs.removeAll(keepingCapacity: true)
        currencyIDs.removeAll(keepingCapacity: true)
        times.removeAll(keepingCapacity: true)
        prices.removeAll(keepingCapacity: true)
        previousCloses.removeAll(keepingCapacity: true)
    }

    /// The symbol index of a row.
    public func symbolID(at index: Int) -> Int { Int(symbolIDs[index]) }

    /// Row indexes in processing order: by time, equal times in file order.
    public var timeOrder: [Int] {
        if isTimeOrdered { return Array(0..<count) }
        // A stable order: sort indexes by (time, index).
        return (0..<count).sorted { a, b in
            times[a] != times[b] ? times[a] < times[b] : a < b
        }
    }

    mutating func append(symbol: Int32, time: Int64, price: Int64, previousClose: Int64, currency: Int32) {
        if let last = times.last, time < last { isTimeOrdered = false }
        symbolIDs.append(symbol)
        times.append(time)
        prices.append(price)
        previousCloses.append(previousClose)
        currencyIDs.append(currency)
    }
}
