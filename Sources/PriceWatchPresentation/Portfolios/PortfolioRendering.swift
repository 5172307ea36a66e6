import PriceWatchCore

/// A ``PortfolioValuation`` as text (aligned columns), JSON (one object) or CSV (one row per
/// position and cash balance, then the total). Money is rounded half-even to the currency's
/// ISO 4217 minor unit for display only; JSON carries the exact decimals.
public enum PortfolioRendering {
    /// ISO 4217 minor units that are not 2.
    static let minorUnitDigits: [String: Int] = [
        "JPY": 0, "KRW": 0, "ISK": 0, "CLP": 0, "VND": 0, "XOF": 0, "XAF": 0, "XPF": 0, "PYG": 0, "UGX": 0, "RWF": 0,
        "KMF": 0, "GNF": 0, "DJF": 0, "VUV": 0, "BHD": 3, "KWD": 3, "OMR": 3, "JOD": 3, "IQD": 3, "LYD": 3, "TND": 3,
    ]

    /// `value` rounded half-even to `currency`'s minor unit.
    public static func money(_ value: ExactDecimal?, _ currency: String) -> String {
        guard let value else { return "-" }
        let digits = minorUnitDigits[currency] ?? 2
        return value.roundedHalfEven(toFractionDigits: digits).formatted(minimumFractionDigits: digits)
    }

    static func percent(_ ratio: Double?) -> String { PaperRendering.percentText(ratio) }

    public static func text(_ valuation: PortfolioValuation) -> String {
        let home = valuation.currency
        var rows: [[String]] = [["SYMBOL", "QUANTITY", "CUR", "COST", "PRICE", "VALUE", "DAY", "UNREALISED", "P&L%", home, "WEIGHT", "PRICED"]]
        for position in valuation.positions {
            let priced = position.price.map { "\($0.time.rfc3339) \($0.provider)" } ?? "-"
            rows.append([position.symbol, position.quantity.description, position.currency, money(position.cost, position.currency),
                         money(position.unitPrice, position.currency), money(position.value, position.currency),
                         money(position.dayChange, position.currency), money(position.unrealised, position.currency),
                         percent(position.unrealisedRatio), money(position.homeValue, home),
                         position.weight.map { percent($0).replacingOccurrences(of: "+", with: "") } ?? "-", priced])
        }
        var lines = ["portfolio \(valuation.name) in \(home) at \(valuation.time.rfc3339)"]
        lines += align(rows)
        for entry in valuation.cash {
            lines.append("cash \(entry.currency) \(money(entry.amount, entry.currency)) = \(money(entry.homeAmount, home)) \(home)"
                         + rateText(entry.rate, entry.currency, home))
        }
        for position in valuation.positions where position.currency != home {
            let rate = position.rate.map { "1 \(position.currency) = \($0.rate) \(home), \($0.source) \($0.time.rfc3339)" }
                ?? "no rate from \(position.currency) to \(home)"
            lines.append("rate \(position.symbol): \(rate)")
        }
        for position in valuation.positions {
            if let excluded = position.excluded { lines.append("not in the totals: \(position.symbol): \(excluded)") }
        }
        for entry in valuation.cash {
            if let excluded = entry.excluded { lines.append("not in the totals: cash \(entry.currency): \(excluded)") }
        }
        lines.append("total value \(money(valuation.totalValue, home)) \(home); cost \(money(valuation.totalCost, home)); "
                     + "unrealised \(money(valuation.totalUnrealised, home)); realised \(money(valuation.totalRealised, home)); "
                     + "day \(money(valuation.totalDayChange, home))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// ` (1 USD = 0.92 EUR, ecb 2026-11-26T15:00:00Z)` after an amount converted from `from` to
    /// `to`, what is missing, or nothing when the currencies are the same.
    public static func rateText(_ rate: ExchangeRate?, _ from: String, _ to: String) -> String {
        guard from != to else { return "" }
        guard let rate else { return " (no rate from \(from) to \(to))" }
        return " (1 \(from) = \(rate.rate) \(to), \(rate.source) \(rate.time.rfc3339))"
    }

    static func align(_ rows: [[String]]) -> [String] {
        guard let width = rows.first?.count else { return [] }
        let widths = (0..<width).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingSuffix()
        }
    }

    public static func json(_ valuation: PortfolioValuation) -> String {
        func rate(_ rate: ExchangeRate?) -> String {
            guard let rate else { return "null" }
            var json = JSONWriter()
            json.number("rate", rate.rate)
            json.time("time", rate.time)
            json.string("source", rate.source)
            return json.result
        }
        var json = JSONWriter()
        json.string("portfolio", valuation.name)
        json.string("currency", valuation.currency)
        json.time("time", valuation.time)
        json.objects("positions", valuation.positions.map { position in
            var item = JSONWriter()
            item.string("symbol", position.symbol)
            item.string("currency", position.currency)
            item.number("quantity", position.quantity)
            item.number("cost", position.cost)
            item.number("realised", position.realised)
            item.number("price", position.unitPrice)
            item.time("price_time", position.price?.time)
            item.string("price_source", position.price?.provider)
            item.number("value", position.value)
            item.number("day_change", position.dayChange)
            item.number("unrealised", position.unrealised)
            item.number("unrealised_percent", PaperRendering.percentJSON(position.unrealisedRatio))
            item.raw("rate", rate(position.rate))
            item.number("home_value", position.homeValue)
            item.number("home_unrealised", position.homeUnrealised)
            item.number("weight_percent", PaperRendering.percentJSON(position.weight))
            item.string("excluded", position.excluded)
            return item.result
        })
        json.objects("cash", valuation.cash.map { entry in
            var item = JSONWriter()
            item.string("currency", entry.currency)
            item.number("amount", entry.amount)
            item.raw("rate", rate(entry.rate))
            item.number("home_amount", entry.homeAmount)
            item.string("excluded", entry.excluded)
            return item.result
        })
        json.number("total_value", valuation.totalValue)
        json.number("total_cost", valuation.totalCost)
        json.number("total_unrealised", valuation.totalUnrealised)
        json.number("total_realised", valuation.totalRealised)
        json.number("total_day_change", valuation.totalDayChange)
        return json.result + "\n"
    }

    public static func csv(_ valuation: PortfolioValuation) -> String {
        let home = valuation.currency
        var lines = ["kind,symbol,currency,quantity,cost,price,value,day_change,unrealised,home_value,price_time,price_source,excluded"]
        func field(_ text: String?) -> String {
            guard let text else { return "" }
            return text.contains(",") || text.contains("\"") ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        for position in valuation.positions {
            lines.append(["position", position.symbol, position.currency, position.quantity.description, position.cost.description,
                          position.unitPrice?.description, position.value?.description, position.dayChange?.description,
                          position.unrealised?.description, position.homeValue?.description, position.price?.time.rfc3339,
                          position.price?.provider, position.excluded].map(field).joined(separator: ","))
        }
        for entry in valuation.cash {
            lines.append(["cash", "", entry.currency, entry.amount.description, "", "", entry.amount.description, "", "",
                          entry.homeAmount?.description, "", "", entry.excluded].map(field).joined(separator: ","))
        }
        lines.append(["total", "", home, "", valuation.totalCost.description, "", "", valuation.totalDayChange.description,
                      valuation.totalUnrealised.description, valuation.totalValue.description, "", "", nil].map(field).joined(separator: ","))
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    fileprivate func trimmingSuffix() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
