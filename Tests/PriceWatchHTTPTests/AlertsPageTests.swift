import PriceWatchCore
@testable import PriceWatchHTTP
import Testing

/// The alert log page (`/alerts`): its filters from a request's parameters, and the rows it
/// shows for a log.
struct AlertsPageTests {
    @Test func filtersComeFromTheParametersAndAnUnknownStatusIsNamed() throws {
        let query = try AlertsPage.query(symbol: "AAPL", rule: "", status: "dead").get()
        #expect(query == AlertQuery(rule: nil, symbol: "AAPL", status: .dead))
        #expect(try AlertsPage.query(symbol: nil, rule: nil, status: nil).get() == AlertQuery())
        guard case .failure(let error) = AlertsPage.query(symbol: nil, rule: nil, status: "lost<b>") else {
            Issue.record("an unknown status was accepted")
            return
        }
        #expect(error.description == "status: expected one of pending, delivered, dead, silenced, found \"lost<b>\"")
        let page = AlertsPage.page(DashboardAlertLog(), query: AlertQuery(), problem: error.description)
        #expect(page.contains("found &quot;lost&lt;b&gt;&quot;"), "the value is escaped")
    }

    @Test func rowsLinkTheirSymbolAndSayHowManyMatched() {
        let time = Timestamp(milliseconds: 1_800_000_000_000)
        let line = DashboardSnapshot.AlertLine(
            alert: Alert(id: "a1", rule: "gspc-above", symbol: "^GSPC", provider: "yahoo", condition: "above 6000",
                         price: ExactDecimal(scaled: 6001_50000000), currency: "USD", time: time, base: nil, change: nil,
                         direction: nil, message: "^GSPC is above 6000 <now>"),
            deliveries: [(sink: "hook", status: "dead"), (sink: "mail", status: "delivered")])
        let query = AlertQuery(symbol: "^GSPC")
        let page = AlertsPage.page(DashboardAlertLog(lines: [line], matched: 3, now: time), query: query)
        #expect(page.contains("the newest 1 of 3 alerts, newest first"))
        #expect(page.contains("<a href=\"symbol/%5EGSPC\">^GSPC</a>"))
        #expect(page.contains("<td class=\"price\">6001.50</td>"))
        #expect(page.contains("^GSPC is above 6000 &lt;now&gt;"))
        #expect(page.contains("hook: dead") && page.contains("mail: delivered"))
        #expect(page.contains("<input name=\"symbol\" value=\"^GSPC\""), "the form shows the filter applied")
        #expect(page.contains("<th scope=\"col\">Delivery</th>"))
        let empty = AlertsPage.page(DashboardAlertLog(matched: 0, now: time), query: AlertQuery())
        #expect(empty.contains("0 alerts, newest first") && !empty.contains("<table>"))
        let failed = AlertsPage.page(DashboardAlertLog(readError: "could not read the alert log: locked", now: time), query: AlertQuery())
        #expect(failed.contains("<p class=\"problem\">could not read the alert log: locked</p>"))
    }
}
