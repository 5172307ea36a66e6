import Foundation
import PriceWatchCore
import Testing

/// Silences: matching by rule or symbol within a time range, and the end times of
/// `silence add` (`--for`, `--until` in local time across daylight-saving changes).
struct SilenceTests {
    static func alert(rule: String = "aapl-200", symbol: String = "AAPL") -> Alert {
        Alert(id: "a1", rule: rule, symbol: symbol, provider: "p", condition: "above 200", price: ExactDecimal(scaled: 20_100_000_000),
              currency: "USD", time: Timestamp(seconds: 1_000), base: nil, change: nil, direction: nil, message: "m")
    }

    static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt

    @Test func aRuleSilenceMatchesOnlyThatRuleWithinItsRange() {
        let silence = Silence(id: "s-1", target: .rule("aapl-200"), startsAt: Timestamp(seconds: 100),
                              endsAt: Timestamp(seconds: 200), createdAt: Timestamp(seconds: 100))
        let set = SilenceSet([silence])
        #expect(set.silence(for: Self.alert(), at: Timestamp(seconds: 100))?.id == "s-1")
        #expect(set.silence(for: Self.alert(), at: Timestamp(seconds: 199))?.id == "s-1")
        #expect(set.silence(for: Self.alert(), at: Timestamp(seconds: 200)) == nil, "the end is exclusive")
        #expect(set.silence(for: Self.alert(), at: Timestamp(seconds: 99)) == nil, "not before its start")
        #expect(set.silence(for: Self.alert(rule: "other"), at: Timestamp(seconds: 150)) == nil)
    }

    @Test func aSymbolSilenceMatchesEveryRuleOfThatSymbol() {
        let set = SilenceSet([Silence(id: "s-2", target: .symbol("AAPL"), startsAt: Timestamp(seconds: 0),
                                      endsAt: Timestamp(seconds: 50), createdAt: Timestamp(seconds: 0))])
        #expect(set.silence(for: Self.alert(rule: "a"), at: Timestamp(seconds: 10)) != nil)
        #expect(set.silence(for: Self.alert(rule: "b"), at: Timestamp(seconds: 10)) != nil)
        #expect(set.silence(for: Self.alert(symbol: "MSFT"), at: Timestamp(seconds: 10)) == nil)
    }

    @Test func theSilenceEndingLastIsReportedAndOnlyAlertsAreSilenced() {
        let set = SilenceSet([
            Silence(id: "s-short", target: .symbol("AAPL"), startsAt: Timestamp(seconds: 0), endsAt: Timestamp(seconds: 50),
                    createdAt: Timestamp(seconds: 0)),
            Silence(id: "s-long", target: .rule("aapl-200"), startsAt: Timestamp(seconds: 0), endsAt: Timestamp(seconds: 90),
                    createdAt: Timestamp(seconds: 0)),
        ])
        #expect(set.silence(for: Self.alert(), at: Timestamp(seconds: 10))?.id == "s-long")
        let test = OutgoingNotification(id: "t1", kind: .test, time: Timestamp(seconds: 10), content: .alert(Self.alert()))
        #expect(set.silence(for: test, at: Timestamp(seconds: 10)) == nil, "a test notification is never silenced")
        #expect(set.silence(for: OutgoingNotification(Self.alert()), at: Timestamp(seconds: 10))?.id == "s-long")
    }

    @Test func forCountsFromNow() throws {
        let now = Timestamp(seconds: 1_000)
        #expect(try SilenceEnd.after("2h", now: now) == Timestamp(seconds: 1_000 + 7_200))
        #expect(throws: SilenceEnd.ParseError.self) { try SilenceEnd.after("2 hours", now: now) }
    }

    @Test func untilReadsRFC3339AndLocalTimesInTheOperatorsZone() throws {
        // 2024-10-02T12:00:00Z is 14:00 in Berlin (CEST, +02:00).
        let now = try #require(Timestamp(parsing: "2024-10-02T12:00:00Z"))
        #expect(try SilenceEnd.until("2024-10-02T21:00:00Z", now: now, timeZone: Self.berlin).rfc3339 == "2024-10-02T21:00:00Z")
        #expect(try SilenceEnd.until("2024-10-02T23:00:00+02:00", now: now, timeZone: Self.berlin).rfc3339 == "2024-10-02T21:00:00Z")
        #expect(try SilenceEnd.until("2024-10-02 23:00", now: now, timeZone: Self.berlin).rfc3339 == "2024-10-02T21:00:00Z")
        #expect(try SilenceEnd.until("2024-10-02T23:00:30", now: now, timeZone: Self.berlin).rfc3339 == "2024-10-02T21:00:30Z")
        #expect(try SilenceEnd.until("2024-10-03", now: now, timeZone: Self.berlin).rfc3339 == "2024-10-02T22:00:00Z")
        // A time of day: its next occurrence, today or tomorrow.
        #expect(try SilenceEnd.until("23:00", now: now, timeZone: Self.berlin).rfc3339 == "2024-10-02T21:00:00Z")
        #expect(try SilenceEnd.until("08:00", now: now, timeZone: Self.berlin).rfc3339 == "2024-10-03T06:00:00Z")
    }

    @Test func untilAcrossDaylightSavingChanges() throws {
        // Berlin goes from 02:00 to 03:00 on 2024-03-31 and from 03:00 back to 02:00 on 2024-10-27.
        let beforeSpring = try #require(Timestamp(parsing: "2024-03-30T22:00:00Z"))
        #expect(try SilenceEnd.until("08:00", now: beforeSpring, timeZone: Self.berlin).rfc3339 == "2024-03-31T06:00:00Z",
                "08:00 after the change is CEST")
        #expect(try SilenceEnd.until("02:30", now: beforeSpring, timeZone: Self.berlin).rfc3339 == "2024-03-31T01:00:00Z",
                "a skipped time means the end of the gap (03:00 CEST)")
        let beforeAutumn = try #require(Timestamp(parsing: "2024-10-26T22:00:00Z"))
        #expect(try SilenceEnd.until("02:30", now: beforeAutumn, timeZone: Self.berlin).rfc3339 == "2024-10-27T00:30:00Z",
                "a repeated time means its first occurrence (CEST)")
        #expect(try SilenceEnd.until("08:00", now: beforeAutumn, timeZone: Self.berlin).rfc3339 == "2024-10-27T07:00:00Z",
                "08:00 after the change is CET")
    }

    @Test func untilRefusesThePastAndNonsenseNamingWhatItFound() throws {
        let now = try #require(Timestamp(parsing: "2024-10-02T12:00:00Z"))
        for text in ["yesterday", "25:00", "2024-13-01", "2024-10-02T12", "1727875800"] {
            do {
                _ = try SilenceEnd.until(text, now: now, timeZone: Self.berlin)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.description.contains("\"\(text)\""), "\(error.description)")
            }
        }
        do {
            _ = try SilenceEnd.until("2024-10-02T11:00:00Z", now: now, timeZone: Self.berlin)
            Issue.record("a past time was accepted")
        } catch {
            #expect(error.description.contains("not in the future"))
        }
    }
}
