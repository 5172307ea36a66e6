import Foundation
import PriceWatchConfig
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// Calendar files as operators write them: diagnostics with positions, and calendars.d
/// extending or replacing a shipped calendar.
@Suite("Calendar files")
struct CalendarFileTests {
    @Test func badFilesGetPositionedDiagnostics() {
        let text = """
            market = "XNYS"
            time_zone = "America/New_York"
            colour = "blue"

            [[hours]]
            open = "9:30"
            close = "16:00"

            [[holiday]]
            name = "Founders' Day"
            month = 13
            day = 1

            [[holiday]]
            name = "Moving day"
            month = 7
            day = 2
            observe = "sometimes"

            [[early_close]]
            name = "No time"
            date = 2024-07-05
            """
        let (file, diagnostics) = CalendarFileReader.read(text: text, path: "calendars.d/XNYS.toml")
        #expect(file == nil)
        let rendered = diagnostics.map(\.description)
        #expect(rendered.contains { $0.hasPrefix("calendars.d/XNYS.toml:3:1: error: unknown key 'colour'") }, "\(rendered)")
        #expect(rendered.contains { $0.hasPrefix("calendars.d/XNYS.toml:6:1: error: [[hours]]: open: expected a time \"HH:MM\"") }, "\(rendered)")
        #expect(rendered.contains { $0.hasPrefix("calendars.d/XNYS.toml:11:1: error: holiday 'Founders' Day': month: expected an integer from 1 to 12, found the integer 13") }, "\(rendered)")
        #expect(rendered.contains { $0.hasPrefix("calendars.d/XNYS.toml:18:1: error: holiday 'Moving day': observe: expected one of none, sunday-to-monday") }, "\(rendered)")
        #expect(rendered.contains { $0.contains("early_close 'No time': missing key 'close'") }, "\(rendered)")
        #expect(diagnostics.count == 5, "\(rendered)")
    }

    @Test func aTOMLSyntaxErrorIsPositioned() {
        let (file, diagnostics) = CalendarFileReader.read(text: "market = \"XNYS\"\nopen = \n", path: "XNYS.toml")
        #expect(file == nil)
        #expect(diagnostics.first?.line == 2)
    }

    @Test func anOverrideExtendsOrReplacesTheShippedCalendar() throws {
        let overrides = try TemporaryDirectory()
        try Data("""
            # An extra closure the operator knows about before we ship it.
            market = "XNYS"

            [[holiday]]
            name = "Exchange closed for a storm"
            date = 2031-03-05
            """.utf8).write(to: URL(fileURLWithPath: overrides.file("XNYS.toml")))
        try Data("""
            market = "XLON"
            replace = true
            time_zone = "Europe/London"

            [[hours]]
            open = "10:00"
            close = "12:00"
            """.utf8).write(to: URL(fileURLWithPath: overrides.file("XLON.toml")))
        let (markets, diagnostics) = CalendarLibrary.load(shipped: ShippedCalendars.directory, overrides: overrides.path)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let nyse = try #require(markets.calendar(for: MarketIdentifier("XNYS")))
        #expect(nyse.session(on: ShippedCalendars.date("2031-03-05")) == nil)
        #expect(nyse.session(on: ShippedCalendars.date("2031-03-04")) != nil)
        // The shipped rules are still there: 2018-12-05 stays closed.
        #expect(nyse.session(on: ShippedCalendars.date("2018-12-05")) == nil)
        // Replaced: no holidays at all, new hours.
        let london = try #require(markets.calendar(for: MarketIdentifier("XLON")))
        #expect(london.session(on: ShippedCalendars.date("2024-12-25"))?.open == ShippedCalendars.instant("2024-12-25T10:00:00Z"))
    }

    @Test func aBadOverrideIsReportedAndTheShippedCalendarStays() throws {
        let overrides = try TemporaryDirectory()
        try Data("market = \"XNYS\"\n[[holiday]]\nname = \"x\"\n".utf8).write(to: URL(fileURLWithPath: overrides.file("XNYS.toml")))
        let (markets, diagnostics) = CalendarLibrary.load(shipped: ShippedCalendars.directory, overrides: overrides.path)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.path == overrides.file("XNYS.toml"))
        #expect(diagnostics.first?.line == 2)
        #expect(markets.calendar(for: MarketIdentifier("XNYS"))?.session(on: ShippedCalendars.date("2018-12-05")) == nil)
    }
}
