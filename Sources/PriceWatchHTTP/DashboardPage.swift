import PriceWatchCore

/// The dashboard: one server-rendered HTML page with its style and a little plain JavaScript
/// inline (no framework, no external asset). The live sections are rendered by
/// ``sections(_:live:)``, which the page fetches again (`/sections`) when a poll arrives by
/// server-sent events (`/events`).
public enum DashboardPage {
    /// The whole page.
    public static func page(_ snapshot: DashboardSnapshot, live: LiveQuotes) -> String {
        PageShell.html(title: "pricewatch", heading: "pricewatch", home: nil,
                       headerExtra: "<nav><a href=\"markets\">Markets</a> · <a href=\"alerts\">Alerts</a> · <a href=\"portfolio\">Portfolios</a> · <a href=\"paper\">Paper</a> · "
                           + "<a href=\"silences\">Silences</a></nav><span id=\"live-state\" class=\"muted\">connecting…</span>",
                       main: sections(snapshot, live: live), mainID: "sections", script: script)
    }

    /// The live sections: watchlist, rules, recent alerts, health.
    public static func sections(_ snapshot: DashboardSnapshot, live: LiveQuotes) -> String {
        var html = ""
        if let error = snapshot.readError {
            html += "<p class=\"problem\">\(escape(error))</p>\n"
        }
        html += "<section id=\"watchlist\"><h2>Watchlist</h2>\n<table><thead><tr><th scope=\"col\">Symbol</th><th scope=\"col\">Price</th>"
            + "<th scope=\"col\">Change</th><th scope=\"col\">Day range</th><th scope=\"col\">Today</th><th scope=\"col\">Market</th>"
            + "<th scope=\"col\">Quote</th></tr></thead><tbody>\n"
        if snapshot.symbols.isEmpty { html += "<tr><td colspan=\"7\" class=\"muted\">no symbols watched</td></tr>\n" }
        for symbol in snapshot.symbols {
            let figures = SymbolFigures(symbol, live: live)
            let price = figures.last, change = figures.change
            html += "<tr data-symbol=\"\(escape(symbol.symbol))\"\(symbol.isStale ? " class=\"stale\"" : "")><td class=\"symbol\">"
                + "<a href=\"symbol/\(escape(PercentEncoding.encoded(symbol.symbol)))\">\(escape(symbol.symbol))</a></td>"
                + "<td class=\"price\">\(price.map { escape(LiveQuotes.priceText($0.price)) } ?? "–")</td>"
                + "<td class=\"change \(change.css)\">\(change.text)</td>"
                + "<td class=\"range\">\(figures.dayRange.map { escape(rangeText($0)) } ?? "–")</td>"
                + "<td class=\"today\">\(sparkline(figures.points))</td>"
                + marketCell(symbol) + quoteCell(symbol, last: price, now: snapshot.now) + "</tr>\n"
        }
        html += "</tbody></table>"
        // Said once, not in a title on each of a thousand rows.
        if snapshot.symbols.contains(where: { $0.market == nil }) {
            html += "<p class=\"muted note\">Market –: the trading calendars do not know the symbol's market (it is polled as if always open).</p>"
        }
        if snapshot.symbols.contains(where: \.isStale) {
            html += "<p class=\"muted note\">Stale: no newer quote while its market traded for longer than <code>stale_after</code>.</p>"
        }
        html += "</section>\n"

        html += "<section id=\"rules\"><h2>Rules</h2>\n<table><thead><tr><th>Rule</th><th>Symbol</th><th>Condition</th>"
            + "<th>State</th></tr></thead><tbody>\n"
        if snapshot.rules.isEmpty { html += "<tr><td colspan=\"4\" class=\"muted\">no rules</td></tr>\n" }
        for rule in snapshot.rules {
            // A technical rule: its series' values under the condition, or that it is warming up.
            let values = rule.series.flatMap { $0.isWarmingUp ? nil : $0.text }
                .map { "<br><span class=\"muted\">\(escape($0))</span>" } ?? ""
            html += "<tr><td>\(escape(rule.rule))</td><td>\(escape(rule.symbol))</td><td>\(escape(rule.condition))\(values)</td>"
                + "<td class=\"state state-\(rule.state.name.replacingOccurrences(of: " ", with: "-"))\">\(escape(rule.stateText(zone: nil)))</td></tr>\n"
        }
        html += "</tbody></table></section>\n"

        html += "<section id=\"alerts\"><h2>Recent alerts</h2>\n<table><thead><tr><th>Time</th><th>Rule</th><th>Symbol</th>"
            + "<th>Message</th><th>Delivery</th></tr></thead><tbody>\n"
        if snapshot.alerts.isEmpty { html += "<tr><td colspan=\"5\" class=\"muted\">no alerts yet</td></tr>\n" }
        for line in snapshot.alerts {
            let deliveries = line.deliveries.map { "<span class=\"delivery delivery-\(escape($0.status))\">\(escape($0.sink)): \(escape($0.status))</span>" }
            html += "<tr class=\"alert\"><td>\(timeElement(line.alert.time, now: snapshot.now))</td><td>\(escape(line.alert.rule))</td>"
                + "<td>\(escape(line.alert.symbol))</td><td>\(escape(line.alert.message))</td>"
                + "<td>\(deliveries.joined(separator: " "))</td></tr>\n"
        }
        html += "</tbody></table></section>\n"

        html += "<section id=\"health\"><h2>Health</h2>\n"
        if snapshot.problems.isEmpty {
            html += "<p class=\"ok\">polling and delivery are alive</p>\n"
        } else {
            for problem in snapshot.problems { html += "<p class=\"problem\">\(escape(problem))</p>\n" }
        }
        html += "<table><thead><tr><th>Provider</th><th>Interval</th><th>Last poll</th></tr></thead><tbody>\n"
        for provider in snapshot.providers {
            html += "<tr><td>\(escape(provider.name))</td><td>\(provider.interval.map { "\($0.components.seconds) s" } ?? "–")</td>"
                + "<td>\(provider.lastPoll.map { timeElement($0, now: snapshot.now) } ?? "not yet")</td></tr>\n"
        }
        html += "</tbody></table>\n"
        let oldest = snapshot.oldestPending.map { " (oldest since \(timeElement($0, now: snapshot.now)))" } ?? ""
        html += "<p>Outbox: <span id=\"outbox-pending\">\(snapshot.pendingDeliveries)</span> pending\(oldest)</p>\n</section>\n"
        return html
    }

    /// A time as the page shows it: `26 Nov 12:09 UTC` (the year when it is not this one), in a
    /// `<time>` element whose `datetime` the page's script reads to show it in the viewer's zone.
    static func timeElement(_ time: Timestamp, now: Timestamp) -> String {
        "<time datetime=\"\(escape(time.rfc3339))\">\(escape(time.dayMonthText(currentYear: now.year)))</time>"
    }

    /// The change of `price` from the previous close in percent, to two places, as
    /// `pricewatch watch` shows it (`+0.29%`), with a CSS class; `–` without both.
    static func changeText(price: ExactDecimal?, previousClose: ExactDecimal?) -> (text: String, css: String) {
        guard let price, let previousClose, previousClose.isPositive,
              let percent = price.percentChange(from: previousClose, roundedTo: 2) else { return ("–", "flat") }
        let css = percent.isPositive ? "up" : percent < .zero ? "down" : "flat"
        return ((percent.isPositive ? "+" : "") + percent.formatted(minimumFractionDigits: 2) + "%", css)
    }

    /// `224.08 – 226.12`: a day's lowest and highest price as the pages write prices.
    static func rangeText(_ range: (low: ExactDecimal, high: ExactDecimal)) -> String {
        "\(LiveQuotes.priceText(range.low)) – \(LiveQuotes.priceText(range.high))"
    }

    /// The market column: the market's code and whether it is open (`XNYS open`), or `–` when
    /// the calendars do not know the symbol's market (a symbol on no known market is polled as
    /// if always open, which is no reason to say it is).
    static func marketCell(_ symbol: DashboardSnapshot.Symbol) -> String {
        guard let status = symbol.market else {
            return "<td class=\"market muted\">–</td>"
        }
        let name = symbol.marketName.map { escape($0) + " " } ?? ""
        return "<td class=\"market\">\(name)\(status.isOpen ? "open" : "closed")</td>"
    }

    /// The quote column: when the shown price was quoted, by which provider, and `stale` when
    /// the symbol's market has traded `stale_after` without a newer one.
    static func quoteCell(_ symbol: DashboardSnapshot.Symbol, last: HistoryPoint?, now: Timestamp) -> String {
        guard let last else { return "<td class=\"quote muted\">no quote yet</td>" }
        let provider = symbol.provider.map { " <span class=\"muted\">\(escape($0))</span>" } ?? ""
        let stale = symbol.isStale ? " <strong class=\"stale-mark\">stale</strong>" : ""
        return "<td class=\"quote\">\(timeElement(last.time, now: now))\(provider)\(stale)</td>"
    }

    /// The day's points as an inline SVG line (empty when fewer than two).
    static func sparkline(_ points: [HistoryPoint], width: Int = 120, height: Int = 28) -> String {
        guard points.count > 1, let first = points.first, let last = points.last else {
            return "<svg class=\"spark\" width=\"\(width)\" height=\"\(height)\" aria-hidden=\"true\"></svg>"
        }
        let prices = points.map { Double($0.price.scaled) }
        let low = prices.min() ?? 0, high = prices.max() ?? 0
        let span = max(high - low, 1)
        let t0 = Double(first.time.milliseconds), t1 = max(Double(last.time.milliseconds), t0 + 1)
        let coordinates = zip(points, prices).map { point, price -> String in
            let x = (Double(point.time.milliseconds) - t0) / (t1 - t0) * Double(width - 2) + 1
            let y = Double(height - 2) - (price - low) / span * Double(height - 4) + 1
            return "\((x * 10).rounded() / 10),\((y * 10).rounded() / 10)"
        }
        return "<svg class=\"spark\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" preserveAspectRatio=\"none\" aria-hidden=\"true\">"
            + "<polyline fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.5\" points=\"\(coordinates.joined(separator: " "))\"/></svg>"
    }

    /// `text` safe in HTML text and attribute values.
    public static func escape(_ text: String) -> String { HTMLText.escaped(text) }

    static let style = """
        :root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#667085;--line:#e4e7ec;--up:#067647;--down:#b42318;--card:#f8f9fb}
        @media (prefers-color-scheme: dark){:root{--bg:#0f1115;--fg:#e6e8eb;--muted:#98a2b3;--line:#2a2f37;--up:#47cd89;--down:#f97066;--card:#161a20}}
        *{box-sizing:border-box}body{margin:0;font:15px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;background:var(--bg);color:var(--fg)}
        header{display:flex;align-items:baseline;gap:1rem;padding:.75rem 1rem;border-bottom:1px solid var(--line)}
        h1{font-size:1.2rem;margin:0}h2{font-size:1rem;margin:1rem 0 .5rem}
        main{padding:0 1rem 2rem;max-width:70rem;margin:0 auto}section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:0 .75rem .75rem;margin-top:1rem;overflow-x:auto}
        table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid var(--line);vertical-align:middle}
        th{font-weight:600;color:var(--muted);font-size:.85rem}.price{font-variant-numeric:tabular-nums;font-weight:600}
        .up{color:var(--up)}.down{color:var(--down)}.muted,.flat{color:var(--muted)}.problem{color:var(--down)}.ok{color:var(--up)}
        .delivery{white-space:nowrap;font-size:.85rem}.delivery-dead{color:var(--down)}.delivery-pending{color:var(--muted)}
        .spark{display:block;color:var(--muted)}time{white-space:nowrap}.range{white-space:nowrap;font-variant-numeric:tabular-nums}.note{font-size:.85rem;margin:.5rem 0 0}
        .stale-mark{color:var(--down);font-size:.8rem;text-transform:uppercase;letter-spacing:.03em}
        @media (max-width:600px){body{font-size:14px}th,td{padding:.3rem .35rem}main{padding:0 .5rem 1rem}.spark{width:72px}
        #watchlist thead{display:none}#watchlist table,#watchlist tbody{display:block}
        #watchlist tr{display:grid;grid-template-columns:1fr auto auto;gap:.1rem .75rem;align-items:center;padding:.5rem 0;border-bottom:1px solid var(--line)}
        #watchlist td{border:0;padding:0}#watchlist td.today{grid-column:1/-1}#watchlist .spark{width:100%}
        #watchlist td.range,#watchlist td.market,#watchlist td.quote{grid-column:1/-1;font-size:.85rem}
        #watchlist td.range::before{content:"Day ";color:var(--muted)}#watchlist td.market::before{content:"Market ";color:var(--muted)}
        #watchlist td.quote::before{content:"Quote ";color:var(--muted)}
        #rules thead,#alerts thead{display:none}#rules table,#rules tbody,#alerts table,#alerts tbody{display:block}
        #rules tr,#alerts tr{display:flex;flex-wrap:wrap;gap:0 .6rem;border-bottom:1px solid var(--line);padding:.4rem 0}
        #rules td,#alerts td{display:block;border:0;padding:.1rem 0;overflow-wrap:anywhere}#rules td:first-child{font-weight:600;flex-basis:100%}
        #alerts td:nth-child(4){flex-basis:100%}}
        """

    static let script = """
        (function(){
          var state=document.getElementById('live-state');
          var pending=null;
        """ + PageShell.localTimeFunctions + """
          function refresh(){
            if(pending){return;}
            pending=setTimeout(function(){
              fetch('sections',{cache:'no-store'}).then(function(r){return r.ok?r.text():Promise.reject(r.status);})
                .then(function(html){document.getElementById('sections').innerHTML=html;localTimes();})
                .catch(function(){state.textContent='refresh failed';})
                .then(function(){pending=null;});
            },500);
          }
          if(!window.EventSource){state.textContent='no live updates in this browser';return;}
          var source=new EventSource('events');
          source.addEventListener('open',function(){state.textContent='live';});
          source.addEventListener('error',function(){state.textContent='reconnecting…';});
          source.addEventListener('poll',function(e){
            try{
              var poll=JSON.parse(e.data);
              poll.quotes.forEach(function(q){
                var row=document.querySelector('tr[data-symbol="'+CSS.escape(q.symbol)+'"] .price');
                if(row){row.textContent=q.price;}
              });
              state.textContent='live · '+localTime(poll.time);
            }catch(err){state.textContent='bad update';}
            refresh();
          });
        })();
        """
}
