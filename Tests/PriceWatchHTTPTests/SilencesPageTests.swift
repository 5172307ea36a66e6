import PriceWatchCore
@testable import PriceWatchHTTP
import Testing

/// The silences page: those in force and planned, in start order, escaped, and what to use to
/// make or end one.
struct SilencesPageTests {
    @Test func silencesAreListedInStartOrderWithTheirState() {
        let now = Timestamp(milliseconds: 1_800_000_000_000)
        let later = Silence(id: "s-2", target: .symbol("AAPL"), startsAt: Timestamp(milliseconds: now.milliseconds + 3_600_000),
                            endsAt: Timestamp(milliseconds: now.milliseconds + 7_200_000), comment: "<earnings>",
                            createdAt: now)
        let current = Silence(id: "s-1", target: .rule("aapl-above-200"), startsAt: now,
                              endsAt: Timestamp(milliseconds: now.milliseconds + 600_000), comment: "deploy", createdAt: now)
        let page = SilencesPage.page([later, current], now: now)
        let first = page.range(of: "s-1")
        let second = page.range(of: "s-2")
        #expect(first != nil && second != nil && first!.lowerBound < second!.lowerBound, "in start order")
        #expect(page.contains("<td>rule aapl-above-200</td>"))
        #expect(page.contains("<td>symbol AAPL <span class=\"muted\">(not yet)</span></td>"))
        #expect(page.contains("<td>&lt;earnings&gt;</td>"))
        #expect(page.contains("pricewatch silence"))
        #expect(SilencesPage.page([], now: now).contains("no silence is in force or planned"))
        #expect(SilencesPage.page([], problem: "could not read the silences: locked", now: now)
            .contains("<p class=\"problem\">could not read the silences: locked</p>"))
    }
}
