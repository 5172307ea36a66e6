import Foundation
import PriceWatchCore
import Testing

/// Quiet hours: the window, its release time, and daylight-saving changes (Europe/Berlin).
struct QuietHoursTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt

    static func release(_ window: String, at time: String) throws -> String? {
        let quiet = try QuietHours(parsing: window, timeZone: berlin)
        return quiet.release(at: try #require(Timestamp(parsing: time)))?.rfc3339
    }

    @Test func anOvernightWindowHoldsUntilItsEnd() throws {
        // 2024-10-02 is CEST (+02:00): 22:00 local is 20:00Z, 07:00 local is 05:00Z.
        #expect(try Self.release("22:00-07:00", at: "2024-10-02T19:59:59Z") == nil)
        #expect(try Self.release("22:00-07:00", at: "2024-10-02T20:00:00Z") == "2024-10-03T05:00:00Z", "the start is quiet")
        #expect(try Self.release("22:00-07:00", at: "2024-10-02T23:30:00Z") == "2024-10-03T05:00:00Z", "after midnight")
        #expect(try Self.release("22:00-07:00", at: "2024-10-03T04:59:59Z") == "2024-10-03T05:00:00Z")
        #expect(try Self.release("22:00-07:00", at: "2024-10-03T05:00:00Z") == nil, "the end is not")
        #expect(try Self.release("22:00-07:00", at: "2024-10-03T12:00:00Z") == nil)
    }

    @Test func aDaytimeWindow() throws {
        #expect(try Self.release("12:00-13:30", at: "2024-10-02T10:15:00Z") == "2024-10-02T11:30:00Z")
        #expect(try Self.release("12:00-13:30", at: "2024-10-02T09:59:00Z") == nil)
    }

    @Test func theWindowFollowsTheWallClockAcrossDaylightSavingChanges() throws {
        // 2024-03-31: 02:00 CET becomes 03:00 CEST. 22:00 CET = 21:00Z; 07:00 CEST = 05:00Z: 8 hours.
        #expect(try Self.release("22:00-07:00", at: "2024-03-30T21:00:00Z") == "2024-03-31T05:00:00Z")
        #expect(try Self.release("22:00-07:00", at: "2024-03-31T04:59:00Z") == "2024-03-31T05:00:00Z")
        #expect(try Self.release("22:00-07:00", at: "2024-03-31T05:00:00Z") == nil)
        // 2024-10-27: 03:00 CEST becomes 02:00 CET. 22:00 CEST = 20:00Z; 07:00 CET = 06:00Z: 10 hours.
        #expect(try Self.release("22:00-07:00", at: "2024-10-26T20:00:00Z") == "2024-10-27T06:00:00Z")
        #expect(try Self.release("22:00-07:00", at: "2024-10-27T05:30:00Z") == "2024-10-27T06:00:00Z",
                "06:30 CET is still quiet")
        // A window ending in the skipped hour ends when the clocks jump (03:00 CEST = 01:00Z).
        #expect(try Self.release("22:00-02:30", at: "2024-03-30T23:00:00Z") == "2024-03-31T01:00:00Z")
    }

    @Test func badWindowsAreRefusedNamingWhatWasFound() {
        for text in ["22:00", "22-07", "22:00-7:00", "25:00-07:00", "22:00-07:00:00", "07:00-07:00", ""] {
            do {
                _ = try QuietHours(parsing: text, timeZone: Self.berlin)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.description.contains("\"\(text)\""), "\(error.description)")
            }
        }
    }
}

/// What goes out when quiet hours end: the alerts held until that moment, grouped; a lone one
/// and other kinds the normal way.
@Suite struct QuietReleaseTests {
    static func delivery(_ id: String, kind: NotificationKind = .alert, next: Timestamp?, created: Int64, heldUntil: Timestamp? = nil) -> Delivery {
        let quote = Quote(symbol: "AAPL", price: ExactDecimal("2") ?? .zero, time: Timestamp(seconds: created), currency: "USD")
        let alert = Alert(id: id, rule: "r", symbol: "AAPL", provider: nil, condition: "above 1", price: quote.price, currency: "USD",
                          time: quote.time, base: nil, change: nil, direction: nil, message: id)
        let notification = kind == .alert ? OutgoingNotification(alert)
            : OutgoingNotification(id: id, kind: kind, time: quote.time, content: .message(NotificationMessage(title: id, text: id)))
        return Delivery(notification: notification, sink: "s", status: .pending, attempts: 0, createdAt: Timestamp(seconds: created),
                        nextAttemptAt: next, deliveredAt: nil, lastError: nil, heldUntil: heldUntil)
    }

    @Test func heldAlertsAreGroupedByTheirReleaseAndOthersGoTheNormalWay() throws {
        // 2024-10-03 07:00 in Berlin (CEST) is 05:00 UTC: the end of 22:00-07:00.
        let release = try #require(Timestamp(parsing: "2024-10-03T05:00:00Z"))
        let deliveries = [Self.delivery("late", next: release, created: 30, heldUntil: release),
                          Self.delivery("early", next: release, created: 10, heldUntil: release),
                          Self.delivery("retry-after-release", next: Timestamp(milliseconds: release.milliseconds + 1234), created: 5,
                                        heldUntil: release),
                          Self.delivery("retry-on-the-hour", next: release, created: 4),
                          Self.delivery("digest", kind: .digest, next: release, created: 1, heldUntil: release)]
        let (rest, groups) = QuietRelease.split(deliveries, maximumGroupSize: 100)
        #expect(groups.map { $0.map(\.notification.id) } == [["early", "late"]])
        #expect(rest.map(\.notification.id) == ["retry-after-release", "retry-on-the-hour", "digest"],
                "a retry that falls on a quiet period's end was not held: it is no release")
        let (_, small) = QuietRelease.split(deliveries, maximumGroupSize: 1)
        #expect(small.map { $0.map(\.notification.id) } == [["early"], ["late"]])
        let (alone, none) = QuietRelease.split([deliveries[0]], maximumGroupSize: 100)
        #expect(none.isEmpty && alone.count == 1, "a lone released alert goes alone")
    }

    /// A held delivery ages from its release, through every retry after it.
    @Test func aHeldDeliveryAgesFromItsRelease() throws {
        let release = try #require(Timestamp(parsing: "2024-10-03T05:00:00Z"))
        let retry = Timestamp(milliseconds: release.milliseconds + 60_000)
        #expect(Self.delivery("held", next: retry, created: 10, heldUntil: release).ageOrigin == release)
        #expect(Self.delivery("never-held", next: retry, created: 10).ageOrigin == Timestamp(seconds: 10))
        #expect(Self.delivery("held", next: release, created: 10, heldUntil: release).isQuietRelease)
        #expect(!Self.delivery("held", next: retry, created: 10, heldUntil: release).isQuietRelease)
    }

    @Test func theReleaseAfterTheNightClocksGoBackIsAtSevenLocal() throws {
        let quiet = try QuietHours(parsing: "22:00-07:00", timeZone: try #require(TimeZone(identifier: "Europe/Berlin")))
        // 2024-10-27: CEST ends at 03:00 local; 07:00 CET is 06:00 UTC.
        let release = try #require(Timestamp(parsing: "2024-10-27T06:00:00Z"))
        #expect(quiet.release(at: try #require(Timestamp(parsing: "2024-10-26T21:30:00Z"))) == release)
        #expect(quiet.release(at: release) == nil, "07:00 is no longer quiet")
    }
}
