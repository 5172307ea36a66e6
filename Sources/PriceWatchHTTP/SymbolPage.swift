import PriceWatchCore
import PriceWatchPresentation

/// A symbol's page (`/symbol/AAPL`): its price and change from the previous close (the figures
/// of the watchlist and `pricewatch watch`), the day's chart with the previous close, every
/// rule's level and the day's alerts (laid out by ``ChartLayout``, the layout of the alert
/// emails' charts, written as inline SVG in a light and a dark version), its facts (market, day
/// and 52-week ranges, the day's volume, previous close, provider), its rules with their states
/// and its recent alerts with their deliveries. Server-rendered; the page's script only
/// refreshes it when a poll arrives.
public enum SymbolPage {
    /// The fewest prices a chart is drawn from: fewer is said, never drawn as a line between
    /// two points (as `pricewatch history --format svg`).
    public static let minimumChartPoints = 3
    static let chartWidth = 800
    static let chartHeight = 360

    /// The chart's ranges, as the page's links offer them (`?range=5d`).
    public static let ranges: [HistoryRange] = [.oneDay, .fiveDays, .oneMonth, .sixMonths, .oneYear, .fiveYears]

    /// The page of `symbol`, nil when no rule watches it. `range` other than the day charts
    /// `history` (the day's chart is the snapshot's, as the watchlist's line); `year`, the
    /// history read for the 1Y range, gives the 52-week range (not shown when nil: not read).
    public static func page(_ symbol: String, snapshot: DashboardSnapshot, live: LiveQuotes,
                            range: HistoryRange = .oneDay, history: DashboardHistory? = nil,
                            holdings: DashboardHoldings? = nil, year: DashboardHistory? = nil, events: [CompanyEvent] = []) -> String? {
        guard let entry = snapshot.symbols.first(where: { $0.symbol == symbol }) else { return nil }
        return PageShell.html(title: "\(symbol) · pricewatch", heading: symbol, home: "../", style: style,
                              headerExtra: "<span id=\"live-state\" class=\"muted\">connecting…</span>",
                              bodyAttributes: " data-symbol=\"\(HTMLText.escaped(symbol))\"",
                              main: sections(entry, snapshot: snapshot, live: live, range: range, history: history,
                                             holdings: holdings, year: year, events: events),
                              mainID: "sections", script: script)
    }

    /// The range a `range` query names (`1d` when absent), or the error the page answers `400`
    /// with.
    public static func range(query: String?) -> Result<HistoryRange, PageQueryError> {
        guard let query, !query.isEmpty else { return .success(.oneDay) }
        guard let range = HistoryRange(rawValue: query), ranges.contains(range) else {
            return .failure(PageQueryError(description: "range: expected one of \(ranges.map(\.rawValue).joined(separator: ", ")), "
                                           + "found \"\(ControlCharacters.escaped(query))\""))
        }
        return .success(range)
    }

    /// A range's link label (`5D`) and its words in the chart's summary (`over 5 days`).
    static func label(_ range: HistoryRange) -> (short: String, words: String) {
        switch range {
        case .oneDay: ("1D", "today")
        case .fiveDays: ("5D", "over 5 days")
        case .oneMonth: ("1M", "over a month")
        case .sixMonths: ("6M", "over 6 months")
        case .oneYear: ("1Y", "over a year")
        case .fiveYears: ("5Y", "over 5 years")
        case .max: ("Max", "over all its history")
        }
    }

    /// The links to the other ranges, the current one marked for assistive technology.
    static func rangeLinks(_ current: HistoryRange) -> String {
        "<nav class=\"ranges\" aria-label=\"Chart range\">" + ranges.map { range in
            range == current
                ? "<a href=\"?range=\(range.rawValue)\" aria-current=\"page\">\(label(range).short)</a>"
                : "<a href=\"?range=\(range.rawValue)\">\(label(range).short)</a>"
        }.joined() + "</nav>\n"
    }

    /// The page for a query the symbol page does not understand (served with 400).
    public static func badQuery(_ symbol: String, problem: String) -> String {
        PageShell.html(title: "\(symbol) · pricewatch", heading: symbol, home: "../",
                       main: "<p class=\"problem\">\(HTMLText.escaped(problem))</p>\n" + rangeLinks(.oneDay))
    }

    /// The page for a symbol no rule watches (served with 404).
    public static func notWatched(_ symbol: String) -> String {
        PageShell.html(title: "\(symbol) · pricewatch", heading: "", home: "../",
                       main: "<p class=\"problem\">no rule watches the symbol \(HTMLText.escaped(symbol)); "
                           + "the watchlist lists the symbols that have a page</p>\n")
    }

    static func sections(_ entry: DashboardSnapshot.Symbol, snapshot: DashboardSnapshot, live: LiveQuotes,
                         range: HistoryRange = .oneDay, history: DashboardHistory? = nil,
                         holdings: DashboardHoldings? = nil, year: DashboardHistory? = nil, events: [CompanyEvent] = []) -> String {
        let figures = SymbolFigures(entry, live: live)
        let points = figures.points, last = figures.last, previousClose = figures.previousClose, change = figures.change
        let alerts = snapshot.alerts.filter { $0.alert.symbol == entry.symbol }
        var html = ""
        if let error = snapshot.readError {
            html += "<p class=\"problem\">\(HTMLText.escaped(error))</p>\n"
        }

        html += "<section id=\"quote\"><h2 class=\"visually-hidden\">Price</h2><p class=\"quote-line\">"
            + "<span class=\"price big\">\(last.map { HTMLText.escaped(LiveQuotes.priceText($0.price)) } ?? "–")</span>"
            + (entry.currency.map { " <span class=\"muted\">\(HTMLText.escaped($0))</span>" } ?? "")
            + " <span class=\"change \(change.css)\">\(change.text)</span>"
            + " <span class=\"muted\">\(last.map { "at " + DashboardPage.timeElement($0.time, now: snapshot.now) } ?? "no quote yet")</span></p>\n"
        html += rangeLinks(range)
        if range == .oneDay {
            html += chartFigure(entry, points: points, previousClose: previousClose, change: change.text, alerts: alerts)
        } else {
            html += rangeChart(entry, range: range, history: history ?? .failed("no history read"), alerts: alerts)
        }
        html += "</section>\n"

        html += "<section id=\"facts\"><h2>Facts</h2>\n<dl class=\"facts\">"
        html += PageShell.fact("Market", marketText(entry))
        if let range = figures.dayRange {
            html += PageShell.fact("Day range", HTMLText.escaped(DashboardPage.rangeText(range)))
        }
        if let year { html += PageShell.fact("52-week range", HTMLText.escaped(yearRangeText(year))) }
        if let volume = figures.dayVolume { html += PageShell.fact("Day's volume", HTMLText.escaped(volumeText(volume))) }
        html += PageShell.fact("Previous close", previousClose.map { HTMLText.escaped(LiveQuotes.priceText($0)) } ?? "–")
        html += PageShell.fact("Provider", entry.provider.map(HTMLText.escaped) ?? "–")
        html += "</dl></section>\n"

        if !events.isEmpty { html += eventsSection(events) }
        if let holdings { html += holdingsSection(holdings) }

        let rules = snapshot.rules.filter { $0.symbol == entry.symbol }
        html += "<section id=\"rules\"><h2>Rules</h2>\n<table><thead><tr><th scope=\"col\">Rule</th><th scope=\"col\">Condition</th>"
            + "<th scope=\"col\">State</th></tr></thead><tbody>\n"
        for rule in rules {
            html += "<tr><td>\(HTMLText.escaped(rule.rule))</td><td>\(HTMLText.escaped(rule.condition))</td>"
                + "<td class=\"state\">\(HTMLText.escaped(rule.stateText(zone: nil)))</td></tr>\n"
        }
        html += "</tbody></table></section>\n"

        html += "<section id=\"alerts\"><h2>Recent alerts</h2>\n"
        if alerts.isEmpty {
            html += "<p class=\"muted\">no recent alerts for \(HTMLText.escaped(entry.symbol))</p>\n"
        } else {
            html += "<table><thead><tr><th scope=\"col\">Time</th><th scope=\"col\">Rule</th><th scope=\"col\">Message</th>"
                + "<th scope=\"col\">Delivery</th></tr></thead><tbody>\n"
            for line in alerts {
                let deliveries = line.deliveries.map {
                    "<span class=\"delivery delivery-\(HTMLText.escaped($0.status))\">\(HTMLText.escaped($0.sink)): \(HTMLText.escaped($0.status))</span>"
                }
                html += "<tr class=\"alert\"><td>\(DashboardPage.timeElement(line.alert.time, now: snapshot.now))</td>"
                    + "<td>\(HTMLText.escaped(line.alert.rule))</td><td>\(HTMLText.escaped(line.alert.message))</td>"
                    + "<td>\(deliveries.joined(separator: " "))</td></tr>\n"
            }
            html += "</tbody></table>\n"
        }
        html += "</section>\n"
        return html
    }

    /// The day's chart in both themes (the style shows the one of the viewer's colour scheme)
    /// with a text summary, or why there is none.
    /// The chart of a range beyond the day: the history's closes, the close before the range,
    /// the rules' levels and the alerts within it, and where the prices came from.
    static func rangeChart(_ entry: DashboardSnapshot.Symbol, range: HistoryRange, history: DashboardHistory,
                           alerts: [DashboardSnapshot.AlertLine]) -> String {
        switch history {
        case .failed(let reason):
            return "<p class=\"muted chart-missing\">no chart \(label(range).words): \(HTMLText.escaped(reason))</p>\n"
        case .read(let points, let startingClose, let source, let note, _):
            let change = points.last.map { DashboardPage.changeText(price: $0.price, previousClose: startingClose).text } ?? "–"
            // Intraday candles (5D, 1M) cross nights: each new session is marked.
            let breaks = range.defaultInterval.seconds < 86_400
                ? SessionBreaks.between(points.map(\.time), timeZone: entry.marketTimeZone ?? "UTC") : []
            var html = chartFigure(entry, points: points, previousClose: startingClose, referenceLabel: "before range",
                                   period: label(range).words, change: change == "–" ? change : "\(change) \(label(range).short)",
                                   alerts: alerts, sessionBreaks: breaks)
            html += "<p class=\"muted chart-source\">\(points.count) prices from \(HTMLText.escaped(source))"
                + (note.map { "; \(HTMLText.escaped($0))" } ?? "") + "</p>\n"
            return html
        }
    }

    static func chartFigure(_ entry: DashboardSnapshot.Symbol, points: [HistoryPoint], previousClose: ExactDecimal?,
                            referenceLabel: String = "prev close", period: String = "today",
                            change: String, alerts: [DashboardSnapshot.AlertLine], sessionBreaks: [Timestamp] = []) -> String {
        guard points.count >= minimumChartPoints, let first = points.first, let final = points.last else {
            return "<p class=\"muted chart-missing\">not enough data for a chart: \(points.count) price(s) \(period), "
                + "expected at least \(minimumChartPoints)</p>\n"
        }
        var title = entry.symbol + (entry.currency.map { " \($0)" } ?? "")
        title += "  \(LiveQuotes.priceText(final.price))"
        if change != "–" { title += " \(change)" }
        var levels = entry.levels
        if let previousClose {
            levels.insert(ChartLevel(role: .previousClose, price: previousClose, label: referenceLabel), at: 0)
        }
        let markers = alerts.map(\.alert).filter { $0.time >= first.time && $0.time <= final.time }
            .map { ChartMarker(time: $0.time, price: $0.price, label: $0.rule, note: $0.message) }
        let chart = ChartDescription(title: title, series: points.map { ChartPoint(time: $0.time, price: $0.price) },
                                     levels: levels, sessionBreaks: sessionBreaks, markers: markers, timeZone: entry.marketTimeZone ?? "UTC",
                                     theme: .light, width: chartWidth, height: chartHeight)
        let summary = summaryText(entry, points: points, previousClose: previousClose, referenceLabel: referenceLabel,
                                  period: period, levels: entry.levels, alerts: markers.count)
        let svgs = ChartVariants.svgs(chart, title: title, summary: summary)
        let note = markers.contains { $0.note != nil } ? "<p id=\"marker-note\" class=\"marker-note\" aria-live=\"polite\"></p>" : ""
        return "<figure class=\"chart-figure\">\(svgs)\(note)<figcaption class=\"muted\">\(HTMLText.escaped(summary))</figcaption></figure>\n"
    }

    /// The upcoming earnings and dividend dates, each with its source (docs/events.md).
    static func eventsSection(_ events: [CompanyEvent]) -> String {
        var html = "<section id=\"events\"><h2>Upcoming events</h2>\n<ul class=\"events\">"
        for event in events {
            html += "<li><time datetime=\"\(event.date)\">\(event.date)</time> \(HTMLText.escaped(event.text))"
                + " <span class=\"muted\">(\(HTMLText.escaped(event.source)))</span></li>"
        }
        return html + "</ul></section>\n"
    }

    /// Where the symbol is held: each portfolio's position (the figures of `pricewatch
    /// portfolio`) and each paper account's (those of `pricewatch paper show`), linked to
    /// their pages; said when it is held nowhere.
    static func holdingsSection(_ holdings: DashboardHoldings) -> String {
        var html = "<section id=\"holdings\"><h2>Holdings</h2>\n"
        for problem in holdings.problems { html += "<p class=\"problem\">\(HTMLText.escaped(problem))</p>\n" }
        guard !holdings.portfolios.isEmpty || !holdings.paper.isEmpty else {
            return html + "<p class=\"muted\">not held in any portfolio or paper account</p></section>\n"
        }
        html += "<table><thead><tr><th scope=\"col\">Held in</th><th scope=\"col\">Quantity</th><th scope=\"col\">Cost</th>"
            + "<th scope=\"col\">Value</th><th scope=\"col\">Unrealised</th></tr></thead><tbody>\n"
        func css(_ value: ExactDecimal?) -> String {
            guard let value else { return "flat" }
            return value.isPositive ? "up" : value < .zero ? "down" : "flat"
        }
        for holding in holdings.portfolios {
            let position = holding.position, currency = position.currency
            func money(_ value: ExactDecimal?) -> String { HTMLText.escaped(PortfolioRendering.money(value, currency)) }
            html += "<tr><td>portfolio <a href=\"../portfolio/\(HTMLText.escaped(PercentEncoding.encoded(holding.portfolio)))\">"
                + "\(HTMLText.escaped(holding.portfolio))</a></td><td>\(HTMLText.escaped(position.quantity.description))</td>"
                + "<td>\(money(position.cost)) \(HTMLText.escaped(currency))</td><td>\(money(position.value))</td>"
                + "<td class=\"\(css(position.unrealised))\">\(money(position.unrealised))</td></tr>\n"
        }
        for holding in holdings.paper {
            let position = holding.position
            html += "<tr><td>paper <a href=\"../paper/\(HTMLText.escaped(PercentEncoding.encoded(holding.account)))\">"
                + "\(HTMLText.escaped(holding.account))</a></td><td>\(HTMLText.escaped(position.quantity.description))</td>"
                + "<td>\(HTMLText.escaped(PaperRendering.money(position.netCost))) \(HTMLText.escaped(holding.currency))</td>"
                + "<td>\(HTMLText.escaped(PaperRendering.money(position.value)))</td>"
                + "<td class=\"\(css(position.profit))\">\(HTMLText.escaped(PaperRendering.money(position.profit)))</td></tr>\n"
        }
        html += "</tbody></table>\n"
        for holding in holdings.portfolios { html += PortfolioPage.lotsTable(holding.lots, within: "in \(holding.portfolio)") }
        return html + "</section>\n"
    }

    /// The chart as a sentence: what a screen reader says, and the caption under it.
    static func summaryText(_ entry: DashboardSnapshot.Symbol, points: [HistoryPoint], previousClose: ExactDecimal?,
                            referenceLabel: String = "prev close", period: String = "today",
                            levels: [ChartLevel], alerts: Int) -> String {
        let prices = points.map(\.price)
        guard let first = prices.first, let last = prices.last, let low = prices.min(), let high = prices.max() else { return "" }
        var text = "\(entry.symbol) \(period), \(points.count) prices: opened the chart at \(LiveQuotes.priceText(first)), "
            + "now \(LiveQuotes.priceText(last)), low \(LiveQuotes.priceText(low)), high \(LiveQuotes.priceText(high))"
        if let previousClose {
            text += referenceLabel == "prev close" ? "; previous close \(LiveQuotes.priceText(previousClose))"
                : "; close before the range \(LiveQuotes.priceText(previousClose))"
        }
        if !levels.isEmpty {
            text += "; rule levels: " + levels.map { "\($0.label) at \(LiveQuotes.priceText($0.price))" }.joined(separator: ", ")
        }
        if alerts > 0 { text += "; \(alerts) alert\(alerts == 1 ? "" : "s") \(period)" }
        text += "; times in \(entry.marketTimeZone ?? "UTC")."
        return text
    }

    /// The 52-week range of the 1Y history as the day range is written (`120.10 – 199.62`),
    /// with where the history starts when it covers less (`120.10 – 199.62 (from 14 Mar
    /// 2026)`, the first candle's UTC date); `–` when nothing is known.
    static func yearRangeText(_ year: DashboardHistory) -> String {
        guard case .read(_, _, _, _, let range?) = year else { return "–" }
        let text = DashboardPage.rangeText((low: range.low, high: range.high))
        guard let since = range.knownSince else { return text }
        let date = CivilDate(utcDateOf: since)
        return text + " (from \(date.day) \(Timestamp.monthAbbreviations[date.month - 1]) \(date.year))"
    }

    /// A volume with thousands separators (`48,213,567`), a fractional one (crypto) cut to two
    /// decimals (`1,234.56`).
    static func volumeText(_ volume: ExactDecimal) -> String {
        let parts = volume.description.split(separator: ".", maxSplits: 1)
        let whole = parts.first.map(String.init) ?? "0"
        var grouped = ""
        for (index, digit) in whole.enumerated() {
            if index > 0, (whole.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return parts.count > 1 ? grouped + "." + parts[1].prefix(2) : grouped
    }

    static func marketText(_ entry: DashboardSnapshot.Symbol) -> String {
        guard let status = entry.market, let name = entry.marketName else {
            return "<span class=\"muted\" title=\"the trading calendars do not know this symbol's market\">–</span>"
        }
        let state = status.isOpen ? "open" : "closed"
        // A market that never closes has no next change worth saying ("closes in 11h53m").
        guard let next = status.nextKnownChange else {
            return "\(HTMLText.escaped(name)): \(state)"
        }
        let verb = status.isOpen ? "closes" : "opens"
        return "\(HTMLText.escaped(name)): \(state), \(verb) <time datetime=\"\(HTMLText.escaped(next.rfc3339))\">"
            + "\(HTMLText.escaped(next.dayMonthText()))</time>"
    }

    static let style = """
        .big{font-size:1.6rem}
        .ranges{display:flex;gap:.25rem;margin:.25rem 0 .5rem}.ranges a{padding:.15rem .55rem;border:1px solid var(--line);border-radius:6px;text-decoration:none;color:inherit;font-size:.85rem}
        .ranges a[aria-current]{background:var(--fg);color:var(--bg);border-color:var(--fg)}.chart-source{font-size:.85rem}
        svg.chart{touch-action:pan-y}circle.marker{cursor:pointer}.marker-note{font-weight:600;margin:.25rem 0;min-height:1.2em}
        .quote-line{display:flex;flex-wrap:wrap;align-items:baseline;gap:.5rem;margin:.75rem 0}
        .facts{display:grid;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:.5rem 1rem;margin:0}
        .facts dt{color:var(--muted);font-size:.85rem}.facts dd{margin:0}
        .visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
        @media (max-width:600px){#rules thead,#alerts thead,#holdings thead{display:none}
        #rules table,#rules tbody,#rules tr,#rules td,#alerts table,#alerts tbody,#alerts tr,#alerts td,#holdings table,#holdings tbody,#holdings tr,#holdings td{display:block}
        #rules tr,#alerts tr,#holdings tr{border-bottom:1px solid var(--line);padding:.4rem 0}#rules td,#alerts td,#holdings td{border:0;padding:.1rem 0}}
        """

    /// Live updates: the price when a poll brings this symbol, and the sections again from the
    /// server (the chart included) half a second later; times in the viewer's zone.
    static let script = """
        (function(){
          var state=document.getElementById('live-state');
          var symbol=document.body.getAttribute('data-symbol');
          var pending=null;
        """ + PageShell.localTimeFunctions + """
          function refresh(){
            if(pending){return;}
            pending=setTimeout(function(){
              fetch(location.pathname+location.search,{cache:'no-store'}).then(function(r){return r.ok?r.text():Promise.reject(r.status);})
                .then(function(html){
                  var next=new DOMParser().parseFromString(html,'text/html').getElementById('sections');
                  if(next){document.getElementById('sections').innerHTML=next.innerHTML;localTimes();crosshairs();}
                })
                .catch(function(){state.textContent='refresh failed';})
                .then(function(){pending=null;});
            },500);
          }
          // The chart's crosshair: the time and price under the pointer, read from the plot's
          // frame (data-frame: left right top bottom, start and end in ms, low and high price).
          function crosshairs(){
            document.querySelectorAll('svg.chart[data-frame]').forEach(function(svg){
              var f=svg.getAttribute('data-frame').split(' ').map(Number),ns='http://www.w3.org/2000/svg',parts=[];
              ['line','line','text'].forEach(function(kind){
                var n=document.createElementNS(ns,kind);n.setAttribute('class','crosshair');n.setAttribute('visibility','hidden');
                if(kind==='line'){n.setAttribute('stroke','currentColor');n.setAttribute('stroke-dasharray','3 3');}
                else{n.setAttribute('fill','currentColor');n.setAttribute('font-size','13');}
                svg.appendChild(n);parts.push(n);
              });
              function show(on){parts.forEach(function(n){n.setAttribute('visibility',on?'visible':'hidden');});}
              svg.addEventListener('pointerleave',function(){show(false);});
              svg.addEventListener('pointermove',function(e){
                var m=svg.getScreenCTM();if(!m){return;}
                var p=new DOMPoint(e.clientX,e.clientY).matrixTransform(m.inverse());
                if(p.x<f[0]||p.x>f[1]||p.y<f[2]||p.y>f[3]){show(false);return;}
                var time=f[4]+(p.x-f[0])/(f[1]-f[0])*(f[5]-f[4]),price=f[6]+(f[3]-p.y)/(f[3]-f[2])*(f[7]-f[6]);
                parts[0].setAttribute('x1',p.x);parts[0].setAttribute('x2',p.x);parts[0].setAttribute('y1',f[2]);parts[0].setAttribute('y2',f[3]);
                parts[1].setAttribute('x1',f[0]);parts[1].setAttribute('x2',f[1]);parts[1].setAttribute('y1',p.y);parts[1].setAttribute('y2',p.y);
                parts[2].textContent=localTime(new Date(Math.round(time)).toISOString())+' · '+(Math.abs(price)<1?price.toPrecision(4):price.toFixed(2));
                parts[2].setAttribute('x',Math.min(p.x+8,f[1]-190));parts[2].setAttribute('y',Math.max(p.y-8,f[2]+14));
                show(true);
              });
            });
          }
          crosshairs();
          // An alert marker's text on tap (a pointer's hover shows the marker's title itself).
          document.addEventListener('click',function(e){
            var marker=e.target.closest&&e.target.closest('circle.marker');
            var note=document.getElementById('marker-note');
            if(marker&&note){note.textContent=marker.textContent;}
          });
          if(!window.EventSource){state.textContent='no live updates in this browser';return;}
          var source=new EventSource('../events');
          source.addEventListener('open',function(){state.textContent='live';});
          source.addEventListener('error',function(){state.textContent='reconnecting…';});
          source.addEventListener('poll',function(e){
            try{
              var poll=JSON.parse(e.data);
              var mine=poll.quotes.filter(function(q){return q.symbol===symbol;});
              if(mine.length){document.querySelector('#quote .price').textContent=mine[mine.length-1].price;refresh();}
              state.textContent='live · '+localTime(poll.time);
            }catch(err){state.textContent='bad update';}
          });
        })();
        """
}
