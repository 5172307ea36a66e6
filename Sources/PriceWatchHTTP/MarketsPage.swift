import PriceWatchCore

/// The markets screen (`/markets`): every market of the trading calendars with whether it is
/// open and its next open or close (in the viewer's zone), then the watched symbols grouped by
/// their market, each with its price, change from the previous close and the day's line (the
/// watchlist's figures).
public enum MarketsPage {
    public static func page(_ markets: [DashboardMarket], snapshot: DashboardSnapshot, live: LiveQuotes) -> String {
        var main = "<section id=\"markets\"><h2>Markets</h2>\n"
        if markets.isEmpty {
            main += "<p class=\"muted\">no trading calendars are loaded: every market counts as always open (docs/markets.md)</p>\n"
        } else {
            main += "<table><thead><tr><th scope=\"col\">Market</th><th scope=\"col\">Name</th><th scope=\"col\">State</th>"
                + "<th scope=\"col\">Next</th><th scope=\"col\">Time zone</th></tr></thead><tbody>\n"
            for market in markets {
                main += "<tr><td>\(HTMLText.escaped(market.code))</td><td>\(HTMLText.escaped(market.name))</td>"
                    + "<td class=\"\(market.status.isOpen ? "up" : "muted")\">\(market.status.isOpen ? "open" : "closed")</td>"
                    + "<td>\(nextChange(market.status, now: snapshot.now))</td><td>\(HTMLText.escaped(market.timeZone))</td></tr>\n"
            }
            main += "</tbody></table>\n"
        }
        main += "</section>\n"

        let names = Dictionary(markets.map { ($0.code, $0.name) }, uniquingKeysWith: { first, _ in first })
        let groups = Dictionary(grouping: snapshot.symbols) { $0.marketName ?? "" }
        for code in groups.keys.sorted(by: { ($0.isEmpty ? 1 : 0, $0) < ($1.isEmpty ? 1 : 0, $1) }) {
            let title = code.isEmpty ? "Symbols on no known market" : "\(code)\(names[code].map { " · \($0)" } ?? "")"
            main += "<section class=\"market-symbols\"><h2>\(HTMLText.escaped(title))</h2>\n<table><thead><tr>"
                + "<th scope=\"col\">Symbol</th><th scope=\"col\">Price</th><th scope=\"col\">Change</th><th scope=\"col\">Today</th>"
                + "</tr></thead><tbody>\n"
            for symbol in groups[code] ?? [] {
                let figures = SymbolFigures(symbol, live: live)
                let points = figures.points, price = figures.last, change = figures.change
                main += "<tr><td><a href=\"symbol/\(HTMLText.escaped(PercentEncoding.encoded(symbol.symbol)))\">"
                    + "\(HTMLText.escaped(symbol.symbol))</a></td>"
                    + "<td class=\"price\">\(price.map { HTMLText.escaped(LiveQuotes.priceText($0.price)) } ?? "–")</td>"
                    + "<td class=\"change \(change.css)\">\(change.text)</td><td>\(DashboardPage.sparkline(points))</td></tr>\n"
            }
            main += "</tbody></table></section>\n"
        }
        return PageShell.html(title: "Markets · pricewatch", heading: "Markets", home: "./", main: main)
    }

    /// `closes 26 Nov 21:00 UTC` / `opens ...` in a `<time>` the script shows in the viewer's
    /// zone; nothing for a market that never closes.
    static func nextChange(_ status: MarketStatus, now: Timestamp) -> String {
        guard let next = status.nextKnownChange else { return "–" }
        return "\(status.isOpen ? "closes" : "opens") " + DashboardPage.timeElement(next, now: now)
    }
}
