import PriceWatchCore
import PriceWatchPresentation

/// A portfolio's page (`/portfolio/NAME`, or `/portfolio` for all of them): each position's
/// quantity, cost, price, value, day change, unrealised profit and its percent, its value in
/// the home currency and its weight (as a bar), the cash, the rates used and the totals: the
/// figures of `pricewatch portfolio` for the same state, with the same rounding
/// (``PortfolioRendering``). Positions left out of the totals say why.
public enum PortfolioPage {
    /// The page for `portfolios` as read for `name` (nil: all).
    public static func page(_ portfolios: DashboardPortfolios, name: String?) -> (status: Int, html: String) {
        var status = 200
        var body = ""
        let none = "<p class=\"muted\">no portfolio in portfolios.d (docs/portfolios.md)</p>\n"
        switch portfolios {
        case .valued([], _, _):
            body = none
        case .unknown where name == nil:
            // Asked for every portfolio and there is none: an empty page, not a missing one.
            body = none
        case .valued(let valuations, let values, let lots):
            body = valuations.map { section($0, root: name == nil ? "" : "../", values: values[$0.name] ?? [], lots: lots[$0.name] ?? []) }
                .joined()
        case .unknown(let available):
            status = 404
            let known = available.isEmpty ? "portfolios.d has none"
                : "portfolios: " + available.map { "<a href=\"\(HTMLText.escaped(PercentEncoding.encoded($0)))\">\(HTMLText.escaped($0))</a>" }
                    .joined(separator: ", ")
            body = "<p class=\"problem\">no portfolio named \(HTMLText.escaped(name ?? "")); \(known)</p>\n"
        case .failed(let message):
            status = 503
            body = "<p class=\"problem\">\(HTMLText.escaped(message))</p>\n"
        }
        let title = name.map { "Portfolio \($0)" } ?? "Portfolios"
        // From /portfolio/NAME the dashboard is one level up; from /portfolio, beside it.
        let home = name == nil ? "./" : "../"
        let html = PageShell.html(title: "\(title) · pricewatch", heading: title, home: home,
                                  style: style, main: body)
        return (status, html)
    }

    /// The portfolio's recorded daily values as a chart (from three days on) against its cost
    /// on the last day, or how many days there are so far.
    static func valueOverTime(_ name: String, values: [PortfolioValuePoint]) -> String {
        // Points in another currency than the latest (the home currency was changed) would not
        // be one line: the chart starts where the latest currency does.
        let currency = values.last?.currency ?? ""
        let points = values.reversed().prefix { $0.currency == currency }.reversed()
        guard points.count >= SymbolPage.minimumChartPoints, let first = points.first, let last = points.last else {
            return "<p class=\"muted value-over-time\">value over time: \(points.count) day(s) recorded, a chart from "
                + "\(SymbolPage.minimumChartPoints) (the daemon records each portfolio's value every hour)</p>\n"
        }
        let title = "\(name) value (\(currency))"
        let summary = "\(name)'s value over \(points.count) days, \(first.day) to \(last.day): from "
            + "\(PortfolioRendering.money(first.value, currency)) to \(PortfolioRendering.money(last.value, currency)) \(currency); "
            + "cost \(PortfolioRendering.money(last.cost, currency))."
        let chart = ChartDescription(title: title, series: points.map { ChartPoint(time: $0.time, price: $0.value) },
                                     levels: [ChartLevel(role: .previousClose, price: last.cost, label: "cost")], width: 800, height: 300)
        let svgs = ChartVariants.svgs(chart, title: title, summary: summary)
        return "<figure class=\"chart-figure value-over-time\">\(svgs)<figcaption class=\"muted\">\(HTMLText.escaped(summary))</figcaption></figure>\n"
    }

    /// One portfolio; `root` leads from the page to the endpoint's root (for symbol links).
    static func section(_ valuation: PortfolioValuation, root: String, values: [PortfolioValuePoint] = [],
                        lots: [PortfolioLot] = []) -> String {
        let home = valuation.currency
        func money(_ value: ExactDecimal?, _ currency: String) -> String { HTMLText.escaped(PortfolioRendering.money(value, currency)) }
        var html = "<section class=\"portfolio\" id=\"portfolio-\(HTMLText.escaped(valuation.name))\">"
            + "<h2>\(HTMLText.escaped(valuation.name)) <span class=\"muted\">in \(HTMLText.escaped(home)), at "
            + "<time datetime=\"\(HTMLText.escaped(valuation.time.rfc3339))\">\(HTMLText.escaped(valuation.time.dayMonthText()))</time></span></h2>\n"
        html += "<dl class=\"totals\">"
            + PageShell.fact("Value", money(valuation.totalValue, home)) + PageShell.fact("Cost", money(valuation.totalCost, home))
            + PageShell.fact("Unrealised", money(valuation.totalUnrealised, home)) + PageShell.fact("Realised", money(valuation.totalRealised, home))
            + PageShell.fact("Day", money(valuation.totalDayChange, home)) + "</dl>\n"
        html += valueOverTime(valuation.name, values: values)
        html += "<table><thead><tr>" + ["Symbol", "Quantity", "Cost", "Price", "Value", "Day", "Unrealised", "P&L %", home, "Weight", "Priced"]
            .map { "<th scope=\"col\">\(HTMLText.escaped($0))</th>" }.joined() + "</tr></thead><tbody>\n"
        for position in valuation.positions {
            let currency = position.currency
            let weight = position.weight.map { ratio -> String in
                let percent = PaperRendering.percentText(ratio).replacingOccurrences(of: "+", with: "")
                // A bar of up to 5rem for 100%.
                let tenths = Int((max(0, min(1, ratio)) * 50).rounded())
                return "<span class=\"bar\" style=\"width:\(tenths / 10).\(tenths % 10)rem\"></span> \(HTMLText.escaped(percent))"
            } ?? "–"
            let priced = position.price.map {
                "<time datetime=\"\(HTMLText.escaped($0.time.rfc3339))\">\(HTMLText.escaped($0.time.dayMonthText()))</time> \(HTMLText.escaped($0.provider))"
            } ?? "–"
            let ratio = position.unrealisedRatio
            let css = (ratio ?? 0) > 0 ? "up" : (ratio ?? 0) < 0 ? "down" : "flat"
            // A position in another currency than the portfolio's: its P&L in both.
            func both(_ local: ExactDecimal?, _ inHome: ExactDecimal?) -> String {
                guard currency != home, local != nil else { return money(local, currency) }
                return money(local, currency) + " <span class=\"muted\">\(money(inHome, home)) \(HTMLText.escaped(home))</span>"
            }
            html += "<tr\(position.excluded == nil ? "" : " class=\"excluded\"")>"
                + "<td><a href=\"\(root)symbol/\(HTMLText.escaped(PercentEncoding.encoded(position.symbol)))\">"
                + "\(HTMLText.escaped(position.symbol))</a></td>"
                + "<td>\(HTMLText.escaped(position.quantity.description))</td>"
                + "<td>\(money(position.cost, currency)) \(HTMLText.escaped(currency))</td>"
                + "<td class=\"price\">\(money(position.unitPrice, currency))</td>"
                + "<td>\(money(position.value, currency))</td><td>\(both(position.dayChange, position.homeDayChange))</td>"
                + "<td class=\"\(css)\">\(both(position.unrealised, position.homeUnrealised))</td>"
                + "<td class=\"\(css)\">\(HTMLText.escaped(PaperRendering.percentText(ratio)))</td>"
                + "<td>\(money(position.homeValue, home))</td><td class=\"weight\">\(weight)</td><td>\(priced)</td></tr>\n"
        }
        html += "</tbody></table>\n"
        for entry in valuation.cash {
            html += "<p>cash \(HTMLText.escaped(entry.currency)) \(money(entry.amount, entry.currency)) = \(money(entry.homeAmount, home)) "
                + "\(HTMLText.escaped(home))\(HTMLText.escaped(PortfolioRendering.rateText(entry.rate, entry.currency, home)))</p>\n"
        }
        for position in valuation.positions {
            if let excluded = position.excluded {
                html += "<p class=\"problem\">not in the totals: \(HTMLText.escaped(position.symbol)): \(HTMLText.escaped(excluded))</p>\n"
            }
        }
        for entry in valuation.cash {
            if let excluded = entry.excluded {
                html += "<p class=\"problem\">not in the totals: cash \(HTMLText.escaped(entry.currency)): \(HTMLText.escaped(excluded))</p>\n"
            }
        }
        html += lotsTable(lots)
        return html + "</section>\n"
    }

    /// The portfolio's lots (each purchase and sale of its file), by symbol then date, folded
    /// away under a summary so the positions stay the page's first read.
    /// `within`: what the summary adds after the count (`in core` on a symbol's page).
    static func lotsTable(_ lots: [PortfolioLot], within: String = "") -> String {
        guard !lots.isEmpty else { return "" }
        let sorted = lots.enumerated().sorted { ($0.element.symbol, $0.element.date, $0.offset) < ($1.element.symbol, $1.element.date, $1.offset) }
            .map(\.element)
        let count = "\(lots.count) lot\(lots.count == 1 ? "" : "s")" + (within.isEmpty ? "" : " " + HTMLText.escaped(within))
        var html = "<details class=\"lots\"><summary>\(count)</summary>\n<table><thead><tr>"
            + ["Symbol", "Date", "Quantity", "Price", "Fees", "Currency"].map { "<th scope=\"col\">\($0)</th>" }.joined()
            + "</tr></thead><tbody>\n"
        for lot in sorted {
            let symbol = HTMLText.escaped(lot.symbol)
            let quantity = HTMLText.escaped(lot.quantity.description) + (lot.quantity.scaled < 0 ? " (sale)" : "")
            let price = HTMLText.escaped(PortfolioRendering.money(lot.price, lot.currency))
            let fees = HTMLText.escaped(PortfolioRendering.money(lot.fees, lot.currency))
            let date = lot.date.description
            var row = "<tr><td>\(symbol)</td><td><time datetime=\"\(date)\">\(date)</time></td><td>\(quantity)</td>"
            row += "<td>\(price)</td><td>\(fees)</td><td>\(HTMLText.escaped(lot.currency))</td></tr>\n"
            html += row
        }
        return html + "</tbody></table></details>\n"
    }

    static let style = """
        .weight{white-space:nowrap}.bar{display:inline-block;height:.6rem;background:var(--muted);border-radius:2px;vertical-align:middle;}
        .excluded td{color:var(--muted)}
        @media (max-width:600px){.portfolio thead{display:none}.portfolio table,.portfolio tbody,.portfolio tr,.portfolio td{display:block}
        .portfolio tr{border-bottom:1px solid var(--line);padding:.4rem 0}.portfolio td{border:0;padding:.1rem 0}}
        """
}
