import PriceWatchCore
import Testing

/// `{{local_time}}`: the quote time in the market's zone, across summer and winter time.
@Suite struct LocalTimePlaceholderTests {
    static func message(zone: String?, at seconds: Int64) throws -> String {
        let rule = Rule(id: "r", symbols: ["X"], condition: .above(ExactDecimal("1")!),
                        message: try MessageTemplate(parsing: "{{symbol}} at {{local_time}} ({{time}})"))
        let quote = Quote(symbol: "X", price: ExactDecimal("2")!, time: Timestamp(seconds: seconds), exchangeTimeZone: zone)
        return Alert(rule: rule, quote: quote, provider: nil,
                     trigger: RuleStateMachine.Trigger(price: ExactDecimal("2")!)).message
    }

    @Test func newYorkSummerAndWinter() throws {
        // 2024-10-02T13:30Z is 09:30 EDT; 2024-12-02T14:30Z is 09:30 EST.
        #expect(try Self.message(zone: "America/New_York", at: 1_727_875_800) == "X at 2024-10-02 09:30 -04:00 (2024-10-02T13:30:00Z)")
        #expect(try Self.message(zone: "America/New_York", at: 1_733_149_800) == "X at 2024-12-02 09:30 -05:00 (2024-12-02T14:30:00Z)")
    }

    @Test func europeAcrossTheFallBack() throws {
        // 2024-10-27T00:30Z is 02:30 CEST; 01:30Z is 02:30 CET.
        let before = try Self.message(zone: "Europe/Berlin", at: 1_729_989_000)
        let after = try Self.message(zone: "Europe/Berlin", at: 1_729_992_600)
        #expect(before == "X at 2024-10-27 02:30 +02:00 (2024-10-27T00:30:00Z)")
        #expect(after == "X at 2024-10-27 02:30 +01:00 (2024-10-27T01:30:00Z)")
    }

    @Test func unknownZoneIsUTC() throws {
        #expect(try Self.message(zone: nil, at: 1_727_875_800) == "X at 2024-10-02 13:30 UTC (2024-10-02T13:30:00Z)")
        #expect(try Self.message(zone: "Mars/Olympus", at: 1_727_875_800) == "X at 2024-10-02 13:30 UTC (2024-10-02T13:30:00Z)")
    }
}
