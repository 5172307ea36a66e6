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
