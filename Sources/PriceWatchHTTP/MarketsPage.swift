import PriceWatchCore

/// The markets screen (`/markets`): every market of the trading calendars with whether it is
/// open, an early close of its session under way or next (in the market's time), and its next
/// open or close (in the viewer's zone), then the watched symbols grouped by
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
                    + "<td class=\"\(market.status.isOpen ? "up" : "muted")\">\(market.status.isOpen ? "open" : "closed")"
                    + "\(earlyCloseText(market))</td>"
                    + "<td>\(nextChange(market.status, now: snapshot.now))</td><td>\(HTMLText.escaped(market.timeZone))</td></tr>\n"
            }
            main += "</tbody></table>\n"
        }
        main += "</section>\n"

        if !snapshot.marketList.isEmpty {
            let byCode = Dictionary(markets.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
            main += listSection(snapshot.marketList, watched: Set(snapshot.symbols.map(\.symbol)), markets: byCode, live: live)
            return PageShell.html(title: "Markets · pricewatch", heading: "Markets", home: "./", style: style, main: main)
        }
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

    /// The configured list (`[http] markets`), in its order: each symbol's price, change from
    /// the previous close, day range, market (with its early close, from `markets` by code) and
    /// a day chart (the watchlist's figures, drawn larger), linked to its page when a rule
    /// watches it.
    static func listSection(_ list: [DashboardSnapshot.Symbol], watched: Set<String>, markets: [String: DashboardMarket] = [:],
                            live: LiveQuotes) -> String {
        var html = "<section id=\"market-list\"><h2>Indices, futures, currencies and crypto</h2>\n<div class=\"tiles\">"
        for symbol in list {
            let figures = SymbolFigures(symbol, live: live)
            let price = figures.last, change = figures.change
            let name = watched.contains(symbol.symbol)
                ? "<a href=\"symbol/\(HTMLText.escaped(PercentEncoding.encoded(symbol.symbol)))\">\(HTMLText.escaped(symbol.symbol))</a>"
                : HTMLText.escaped(symbol.symbol)
            html += "<article class=\"tile\" data-symbol=\"\(HTMLText.escaped(symbol.symbol))\"><h3>\(name)</h3>"
                + "<p><span class=\"price\">\(price.map { HTMLText.escaped(LiveQuotes.priceText($0.price)) } ?? "–")</span>"
                + (symbol.currency.map { " <span class=\"muted\">\(HTMLText.escaped($0))</span>" } ?? "")
                + " <span class=\"change \(change.css)\">\(change.text)</span></p>"
                + DashboardPage.sparkline(figures.points, width: 240, height: 56)
                + "<p class=\"muted\">\(figures.dayRange.map { "day " + HTMLText.escaped(DashboardPage.rangeText($0)) } ?? "no prices yet today")"
                + (symbol.marketName.map { " · \(HTMLText.escaped($0)) \(symbol.market?.isOpen == true ? "open" : "closed")"
                    + (markets[$0].map(earlyCloseText) ?? "") } ?? "")
                + "</p></article>"
        }
        return html + "</div></section>\n"
    }

    static let style = """
        .tiles{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:.75rem}
        .tile{border:1px solid var(--line);border-radius:8px;padding:.5rem .75rem}.tile h3{margin:0;font-size:1rem}
        .tile p{margin:.25rem 0}.tile .spark{width:100%;height:56px}
        """

    /// `, early close 13:00 -05:00` when the market's session under way or next closes early:
    /// the close in the market's wall-clock time with its offset (an exact time; the zone's
    /// abbreviation, `EST`, is not known on every system); nothing otherwise.
    static func earlyCloseText(_ market: DashboardMarket) -> String {
        guard let close = market.earlyClose else { return "" }
        return ", <span class=\"early-close\">early close \(HTMLText.escaped(LocalTimeText.clock(close, zoneIdentifier: market.timeZone)))</span>"
    }

    /// `closes 26 Nov 21:00 UTC` / `opens ...` in a `<time>` the script shows in the viewer's
    /// zone; nothing for a market that never closes.
    static func nextChange(_ status: MarketStatus, now: Timestamp) -> String {
        guard let next = status.nextKnownChange else { return "–" }
        return "\(status.isOpen ? "closes" : "opens") " + DashboardPage.timeElement(next, now: now)
    }
}
