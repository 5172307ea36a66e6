import PriceWatchCore

/// The alert log as a page (`/alerts`): a filter form (symbol, rule, delivery state; a plain
/// `GET` form, so it works without JavaScript) and the alerts it selects, newest first, each
/// with every sink's delivery state, as `pricewatch alerts` lists them.
public enum AlertsPage {
    /// The most alerts one page shows; the page says how many matched.
    public static let limit = 200

    /// The filters of a request, or why they are not valid (lowercase, naming the parameter).
    public static func query(symbol: String?, rule: String?, status: String?) -> Result<AlertQuery, QueryError> {
        var query = AlertQuery()
        query.symbol = symbol.flatMap { $0.isEmpty ? nil : $0 }
        query.rule = rule.flatMap { $0.isEmpty ? nil : $0 }
        if let status, !status.isEmpty {
            guard let parsed = Delivery.Status(rawValue: status) else {
                let expected = statuses.map(\.rawValue).joined(separator: ", ")
                return .failure(QueryError(description: "status: expected one of \(expected), found \"\(status)\""))
            }
            query.status = parsed
        }
        return .success(query)
    }

    /// A filter that is not valid.
    public typealias QueryError = PageQueryError

    static let statuses: [Delivery.Status] = [.pending, .delivered, .dead, .silenced]

    /// The page for `log`, selected by `query` (shown in the form); `problem` is a filter error.
    public static func page(_ log: DashboardAlertLog, query: AlertQuery, problem: String? = nil) -> String {
        PageShell.html(title: "Alerts · pricewatch", heading: "Alerts", home: "./", style: style,
                       main: form(query) + (problem.map { "<p class=\"problem\">\(HTMLText.escaped($0))</p>\n" } ?? "") + table(log))
    }

    static func form(_ query: AlertQuery) -> String {
        func input(_ name: String, _ label: String, _ value: String?) -> String {
            "<label>\(label) <input name=\"\(name)\" value=\"\(HTMLText.escaped(value ?? ""))\" autocomplete=\"off\"></label>"
        }
        var options = "<option value=\"\">any</option>"
        for status in statuses {
            let selected = query.status == status ? " selected" : ""
            options += "<option value=\"\(status.rawValue)\"\(selected)>\(status.rawValue)</option>"
        }
        return "<section id=\"filters\"><h2>Filter</h2><form method=\"get\" action=\"alerts\" class=\"filters\">"
            + input("symbol", "Symbol", query.symbol) + input("rule", "Rule", query.rule)
            + "<label>Delivery <select name=\"status\">\(options)</select></label>"
            + "<button type=\"submit\">Show</button> <a href=\"alerts\">clear</a></form></section>\n"
    }

    static func table(_ log: DashboardAlertLog) -> String {
        var html = "<section id=\"alerts\"><h2>Alerts</h2>\n"
        if let error = log.readError {
            return html + "<p class=\"problem\">\(HTMLText.escaped(error))</p></section>\n"
        }
        let shown = log.lines.count
        html += "<p class=\"muted\">\(log.matched == shown ? "\(shown)" : "the newest \(shown) of \(log.matched)") "
            + "alert\(log.matched == 1 ? "" : "s"), newest first</p>\n"
        guard shown > 0 else { return html + "</section>\n" }
        html += "<table><thead><tr><th scope=\"col\">Time</th><th scope=\"col\">Rule</th><th scope=\"col\">Symbol</th>"
            + "<th scope=\"col\">Price</th><th scope=\"col\">Message</th><th scope=\"col\">Delivery</th></tr></thead><tbody>\n"
        for line in log.lines {
            let alert = line.alert
            let deliveries = line.deliveries.map {
                "<span class=\"delivery delivery-\(HTMLText.escaped($0.status))\">\(HTMLText.escaped($0.sink)): \(HTMLText.escaped($0.status))</span>"
            }
            html += "<tr class=\"alert\"><td>\(DashboardPage.timeElement(alert.time, now: log.now))</td>"
                + "<td>\(HTMLText.escaped(alert.rule))</td>"
                + "<td><a href=\"symbol/\(HTMLText.escaped(PercentEncoding.encoded(alert.symbol)))\">\(HTMLText.escaped(alert.symbol))</a></td>"
                + "<td class=\"price\">\(HTMLText.escaped(LiveQuotes.priceText(alert.price)))</td>"
                + "<td>\(HTMLText.escaped(alert.message))</td><td>\(deliveries.joined(separator: " "))</td></tr>\n"
        }
        return html + "</tbody></table></section>\n"
    }

    static let style = """
        .filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin:.5rem 0}
        .filters input,.filters select,.filters button{font:inherit;padding:.2rem .4rem}
        @media (max-width:600px){#alerts thead{display:none}#alerts table,#alerts tbody,#alerts tr,#alerts td{display:block}
        #alerts tr{border-bottom:1px solid var(--line);padding:.4rem 0}#alerts td{border:0;padding:.1rem 0}}
        """
}
