import PriceWatchConfig
import PriceWatchCore
import PriceWatchTestKit

/// The calendars of the repository's `calendars/` directory, loaded once for the tests.
enum ShippedCalendars {
    static let directory = RepositoryFiles.path("calendars")

    static let loaded: (calendars: MarketCalendars, diagnostics: [Diagnostic]) =
        CalendarLibrary.load(shipped: directory, overrides: nil)

    static var calendars: MarketCalendars { loaded.calendars }

    /// A date written `2018-12-05` in a test.
    static func date(_ text: String) -> CivilDate {
        CivilDate(parsing: text) ?? CivilDate(dayNumber: 0)
    }

    /// An instant written in RFC 3339 in a test.
    static func instant(_ text: String) -> Timestamp {
        Timestamp(parsing: text) ?? Timestamp(milliseconds: 0)
    }
}
