import PriceWatchCore
import PriceWatchPresentation

/// The paper-trading pages: `/paper`, the leaderboard of every account; `/paper/NAME`, one
/// account's cash, equity, P&L and return since start, its positions, its equity curve (drawn
/// by ``ChartLayout`` as the symbol page's chart is), its period returns and its orders. The
/// figures and rounding are `pricewatch paper`'s (``PaperRendering``).
public enum PaperPage {
    public static func page(_ paper: DashboardPaper, account: String?) -> (status: Int, html: String) {
        var status = 200
        let main: String
        switch paper {
        case .leaderboard(let standings, let currency):
            main = leaderboard(standings, currency: currency)
        case .account(let statement, let history):
            main = accountSections(statement, history: history)
        case .unknownAccount(let name):
            status = 404
            main = "<p class=\"problem\">no paper account named \(HTMLText.escaped(name)); "
                + "<a href=\"../paper\">the leaderboard</a> lists them</p>\n"
        case .failed(let message):
            status = 503
            main = "<p class=\"problem\">\(HTMLText.escaped(message))</p>\n"
        }
        let title = account.map { "Paper account \($0)" } ?? "Paper trading"
        let html = PageShell.html(title: "\(title) · pricewatch", heading: title, home: account == nil ? "./" : "../",
                                  style: style, main: main)
        return (status, html)
    }

    static func leaderboard(_ standings: [PaperReports.Standing], currency: String) -> String {
        var html = "<section id=\"leaderboard\"><h2>Leaderboard</h2>\n"
        guard !standings.isEmpty else {
            return html + "<p class=\"muted\">no paper account yet: <code>pricewatch paper open</code> makes one (docs/paper.md)</p></section>\n"
        }
        html += "<table><thead><tr><th scope=\"col\">Rank</th><th scope=\"col\">Account</th><th scope=\"col\">Return</th>"
            + "<th scope=\"col\">Equity (\(HTMLText.escaped(currency)))</th></tr></thead><tbody>\n"
        for standing in standings {
            let equity = standing.convertedEquity.map(PaperRendering.money)
                ?? "not convertible (\(PaperRendering.money(standing.equity)) \(standing.currency))"
            let ratio = standing.returnSinceStart
            html += "<tr><td>\(standing.rank)</td><td><a href=\"paper/\(HTMLText.escaped(PercentEncoding.encoded(standing.account)))\">"
                + "\(HTMLText.escaped(standing.account))</a></td>"
                + "<td class=\"\(ratio > 0 ? "up" : ratio < 0 ? "down" : "flat")\">\(HTMLText.escaped(PaperRendering.percentText(ratio)))</td>"
                + "<td class=\"price\">\(HTMLText.escaped(equity))</td></tr>\n"
        }
        return html + "</tbody></table></section>\n"
    }

    static func accountSections(_ statement: PaperReports.Statement, history: PaperReports.History?) -> String {
        let account = statement.account
        let currency = HTMLText.escaped(account.currency)
        func money(_ value: ExactDecimal) -> String { "\(HTMLText.escaped(PaperRendering.money(value))) \(currency)" }
        var html = "<section id=\"statement\"><h2>Account</h2>\n<dl class=\"totals\">"
            + PageShell.fact("Equity", money(statement.equity)) + PageShell.fact("Cash", money(statement.cash))
            + PageShell.fact("P&L", "\(money(statement.profit)) (\(HTMLText.escaped(PaperRendering.percentText(statement.returnSinceStart))))")
            + PageShell.fact("Started with", money(account.startingCash)) + PageShell.fact("Fees paid", money(statement.feesPaid))
            + "</dl>\n<p class=\"muted\">opened <time datetime=\"\(HTMLText.escaped(account.openedAt.rfc3339))\">"
            + "\(HTMLText.escaped(account.openedAt.dayMonthText()))</time></p>\n"
        if let history { html += equityCurve(history) }
        html += "</section>\n<section id=\"positions\"><h2>Positions</h2>\n"
        if statement.positions.isEmpty {
            html += "<p class=\"muted\">none</p>\n"
        } else {
            html += "<table><thead><tr><th scope=\"col\">Symbol</th><th scope=\"col\">Quantity</th><th scope=\"col\">Price</th>"
                + "<th scope=\"col\">Value</th><th scope=\"col\">P&amp;L</th></tr></thead><tbody>\n"
            for position in statement.positions {
                html += "<tr><td><a href=\"../symbol/\(HTMLText.escaped(PercentEncoding.encoded(position.symbol)))\">"
                    + "\(HTMLText.escaped(position.symbol))</a></td><td>\(HTMLText.escaped(position.quantity.description))</td>"
                    + "<td class=\"price\">\(position.price.map { HTMLText.escaped($0.description) } ?? "no price")</td>"
                    + "<td>\(HTMLText.escaped(PaperRendering.money(position.value)))</td>"
                    + "<td class=\"\(position.profit.isPositive ? "up" : position.profit < .zero ? "down" : "flat")\">"
                    + "\(HTMLText.escaped(PaperRendering.money(position.profit)))</td></tr>\n"
            }
            html += "</tbody></table>\n"
        }
        html += "</section>\n<section id=\"orders\"><h2>Orders and fills</h2>\n"
        if statement.orders.isEmpty {
            html += "<p class=\"muted\">none</p>\n"
        } else {
            html += "<ul class=\"orders\">" + statement.orders.map { "<li>\(HTMLText.escaped(PaperRendering.orderLine($0)))</li>" }.joined()
                + "</ul>\n"
        }
        return html + "</section>\n"
    }

    /// The daily equity as a chart (from three days on) and the returns of each period.
    static func equityCurve(_ history: PaperReports.History) -> String {
        var html = ""
        let points = history.series.map { ChartPoint(time: $0.day.end, price: $0.equity) }
        if points.count >= SymbolPage.minimumChartPoints {
            let title = "\(history.account.name) equity (\(history.account.currency))"
            let summary = "\(history.account.name)'s equity over \(points.count) days: from "
                + "\(PaperRendering.money(history.series.first?.equity ?? .zero)) to \(PaperRendering.money(history.series.last?.equity ?? .zero)) "
                + "\(history.account.currency)."
            let chart = ChartDescription(title: title, series: points, levels: [ChartLevel(role: .previousClose,
                                         price: history.account.startingCash, label: "start")], width: 800, height: 300)
            let svgs = ChartVariants.svgs(chart, title: title, summary: summary)
            html += "<figure class=\"chart-figure\">\(svgs)<figcaption class=\"muted\">\(HTMLText.escaped(summary))</figcaption></figure>\n"
        } else {
            html += "<p class=\"muted\">not enough data for an equity curve: \(points.count) day(s), expected at least "
                + "\(SymbolPage.minimumChartPoints)</p>\n"
        }
        guard !history.periods.isEmpty else { return html }
        html += "<table><thead><tr><th scope=\"col\">Period</th><th scope=\"col\">From</th><th scope=\"col\">Time-weighted</th>"
            + "<th scope=\"col\">Money-weighted</th><th scope=\"col\">Max drawdown</th></tr></thead><tbody>\n"
        for period in history.periods {
            html += "<tr><td>\(HTMLText.escaped(period.period.rawValue))</td><td>\(HTMLText.escaped("\(period.firstDay)"))</td>"
                + "<td>\(HTMLText.escaped(PaperRendering.percentText(period.timeWeighted)))</td>"
                + "<td>\(HTMLText.escaped(PaperRendering.percentText(period.moneyWeighted)))</td>"
                + "<td>\(HTMLText.escaped(PaperRendering.percentText(-period.maxDrawdown)))</td></tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    static let style = """
        .orders{margin:0;padding-left:1.2rem}
        @media (max-width:600px){#positions thead{display:none}#positions table,#positions tbody,#positions tr,#positions td{display:block}
        #positions tr{border-bottom:1px solid var(--line);padding:.4rem 0}#positions td{border:0;padding:.1rem 0}}
        """
}
