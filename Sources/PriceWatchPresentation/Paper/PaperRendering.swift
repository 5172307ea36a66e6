import PriceWatchCore

/// The text, JSON and CSV forms of the paper-trading reports (`docs/paper-trading.md`).
///
/// Money is shown rounded half-even to two fractional digits in text and CSV, and exact in
/// JSON; returns are percents rounded half away from zero to two digits in text, four in JSON
/// and CSV.
public enum PaperRendering {
    /// Money for people: half-even to cents.
    public static func money(_ value: ExactDecimal) -> String {
        value.roundedHalfEven(toFractionDigits: 2).formatted(minimumFractionDigits: 2)
    }

    /// A ratio as a percent with `digits` fractional digits; nil when not finite.
    public static func percent(_ ratio: Double, digits: Int) -> ExactDecimal? {
        let hundredths = ratio * 100
        guard hundredths.isFinite, abs(hundredths) < 9e10 else { return nil }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (hundredths * scale).rounded(.toNearestOrAwayFromZero)
        return ExactDecimal(scaled: Int64(rounded) * ExactDecimal.powerOfTen(ExactDecimal.scale - digits)).roundedHalfEven(toFractionDigits: digits)
    }

    /// `+5.25%`, `-0.10%`, `-0.0048%`, `+0.00%`, `n/a`.
    ///
    /// Two fractional digits; when two round a move to zero, up to six, enough for two
    /// significant digits. The sign is the ratio's: a loss is never shown as `+`.
    public static func percentText(_ ratio: Double?) -> String {
        guard let ratio, var value = percent(ratio, digits: 2) else { return "n/a" }
        var digits = 2
        if value.scaled == 0 && ratio != 0 {
            // Ten units of the last digit shown are two significant digits.
            while digits < 6, let finer = percent(ratio, digits: digits + 1) {
                digits += 1
                value = finer
                if value.scaled.magnitude >= 10 * UInt64(ExactDecimal.powerOfTen(ExactDecimal.scale - digits)) { break }
            }
            if value.scaled == 0 { digits = 2 }
        }
        let magnitude = ExactDecimal(scaled: Int64(value.scaled.magnitude)).formatted(minimumFractionDigits: digits)
        return (ratio < 0 ? "-" : "+") + magnitude + "%"
    }

    static func percentJSON(_ ratio: Double?) -> ExactDecimal? { ratio.flatMap { percent($0, digits: 4) } }

    // MARK: show

    public static func text(_ statement: PaperReports.Statement) -> String {
        let account = statement.account
        let currency = account.currency
        var lines = [
            "account \(account.name) (\(currency)), opened \(account.openedAt.rfc3339)",
            "cash       \(money(statement.cash)) \(currency)",
            "equity     \(money(statement.equity)) \(currency)",
            "P&L        \(money(statement.profit)) \(currency) (\(percentText(statement.returnSinceStart)) since start of \(money(account.startingCash)))",
            "fees paid  \(money(statement.feesPaid)) \(currency)",
        ]
        lines.append(statement.positions.isEmpty ? "positions: none" : "positions:")
        for position in statement.positions {
            let price = position.price.map { "\($0)" } ?? "no price"
            lines.append("  \(position.symbol)  \(position.quantity) @ \(price)  value \(money(position.value))  P&L \(money(position.profit))")
        }
        lines.append(statement.orders.isEmpty ? "orders: none" : "orders:")
        for record in statement.orders { lines.append("  " + orderLine(record)) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One order for people: `o1  buy 10 AAPL market  filled 10 at 190.5 (fee 1.00)`.
    public static func orderLine(_ record: PaperOrderRecord) -> String {
        let order = record.order
        let kind = order.limit.map { "limit \($0)" } ?? "market"
        var line = "\(order.id)  \(order.side.rawValue) \(order.quantity) \(order.symbol) \(kind)  \(record.status)"
        switch record.outcome {
        case .filled(let fill)?:
            line += " at \(fill.price) (value \(money(fill.notional)), fee \(money(fill.fee)))"
        case .rejected(_, _, let reason, _)?:
            line += ": \(reason)"
        default:
            break
        }
        return line
    }

    public static func json(_ statement: PaperReports.Statement) -> String {
        var writer = accountJSON(statement.account)
        writer.number("cash", statement.cash)
        writer.number("equity", statement.equity)
        writer.number("profit", statement.profit)
        writer.number("return_percent", percentJSON(statement.returnSinceStart))
        writer.number("fees_paid", statement.feesPaid)
        writer.objects("positions", statement.positions.map { position in
            var line = JSONWriter()
            line.string("symbol", position.symbol)
            line.number("quantity", position.quantity)
            line.number("net_cost", position.netCost)
            line.number("price", position.price)
            line.number("value", position.value)
            line.number("profit", position.profit)
            return line.result
        })
        writer.objects("orders", statement.orders.map(orderJSON))
        return writer.result + "\n"
    }

    public static func orderJSON(_ record: PaperOrderRecord) -> String {
        var line = JSONWriter()
        let order = record.order
        line.string("account", order.account)
        line.string("order_id", order.id)
        line.string("symbol", order.symbol)
        line.string("side", order.side.rawValue)
        line.number("quantity", order.quantity)
        line.number("limit", order.limit)
        line.time("placed_at", order.placedAt)
        line.string("status", record.status)
        var fill: PaperFill?
        var reason: String?
        if case .filled(let filled)? = record.outcome { fill = filled }
        if case .rejected(_, _, let why, _)? = record.outcome { reason = why }
        line.number("price", fill?.price)
        line.number("value", fill?.notional)
        line.number("fee", fill?.fee)
        line.time("quote_time", fill?.quoteTime)
        line.string("reason", reason)
        return line.result
    }

    private static func accountJSON(_ account: PaperAccount) -> JSONWriter {
        var writer = JSONWriter()
        writer.string("account", account.name)
        writer.string("currency", account.currency)
        writer.number("starting_cash", account.startingCash)
        writer.time("opened_at", account.openedAt)
        return writer
    }

    // MARK: history

    public static func text(_ history: PaperReports.History) -> String {
        let currency = history.account.currency
        var lines = ["account \(history.account.name) (\(currency)): daily equity"]
        for point in history.series {
            let flow = point.flow == .zero ? "" : "  (deposit \(money(point.flow)))"
            lines.append("  \(point.day)  \(money(point.equity))\(flow)")
        }
        lines.append("period  from        TWR        MWR (IRR)  max drawdown")
        for period in history.periods {
            lines.append(pad(period.period.rawValue, 8) + pad("\(period.firstDay)", 12)
                + pad(percentText(period.timeWeighted), 11) + pad(percentText(period.moneyWeighted), 11)
                + percentText(-period.maxDrawdown))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func json(_ history: PaperReports.History) -> String {
        var writer = accountJSON(history.account)
        writer.objects("equity", history.series.map { point in
            var line = JSONWriter()
            line.string("day", point.day.description)
            line.number("equity", point.equity)
            line.number("flow", point.flow)
            return line.result
        })
        writer.objects("returns", history.periods.map { period in
            var line = JSONWriter()
            line.string("period", period.period.rawValue)
            line.string("from", period.firstDay.description)
            line.string("to", period.lastDay.description)
            line.number("time_weighted_percent", percentJSON(period.timeWeighted))
            line.number("money_weighted_percent", percentJSON(period.moneyWeighted))
            line.number("max_drawdown_percent", percentJSON(period.maxDrawdown))
            return line.result
        })
        return writer.result + "\n"
    }

    // MARK: leaderboard

    public static func leaderboardText(_ standings: [PaperReports.Standing], currency: String) -> String {
        var lines = ["rank  account          return     equity (\(currency))"]
        for standing in standings {
            let equity = standing.convertedEquity.map(money) ?? "not convertible (\(money(standing.equity)) \(standing.currency))"
            var line = pad("\(standing.rank)", 6) + pad(standing.account, 17) + pad(percentText(standing.returnSinceStart), 11) + equity
            if let rate = standing.rate {
                line += "  (\(standing.currency)->\(currency) \(rate.rate) of \(rate.time.rfc3339), \(rate.source))"
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func leaderboardJSON(_ standings: [PaperReports.Standing], currency: String) -> String {
        var writer = JSONWriter()
        writer.string("currency", currency)
        writer.objects("standings", standings.map { standing in
            var line = JSONWriter()
            line.integer("rank", standing.rank)
            line.string("account", standing.account)
            line.string("account_currency", standing.currency)
            line.number("return_percent", percentJSON(standing.returnSinceStart))
            line.number("starting_cash", standing.startingCash)
            line.number("equity", standing.equity)
            line.number("converted_equity", standing.convertedEquity)
            line.number("rate", standing.rate?.rate)
            line.time("rate_time", standing.rate?.time)
            line.string("rate_source", standing.rate?.source)
            return line.result
        })
        return writer.result + "\n"
    }

    public static func leaderboardCSV(_ standings: [PaperReports.Standing], currency: String) -> String {
        var lines = ["rank,account,account_currency,return_percent,starting_cash,equity,currency,converted_equity,rate,rate_time,rate_source"]
        for standing in standings {
            let fields = [
                "\(standing.rank)", standing.account, standing.currency,
                percentJSON(standing.returnSinceStart)?.description ?? "",
                standing.startingCash.description, money(standing.equity), currency,
                standing.convertedEquity.map(money) ?? "", standing.rate.map { "\($0.rate)" } ?? "",
                standing.rate?.time.rfc3339 ?? "", standing.rate?.source ?? "",
            ]
            lines.append(AlertLogCSV.line(fields))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
