import Testing
@testable import PriceWatchCore

/// The UUID-shaped writing of alert ids, against the straightforward formatting it replaces.
@Suite struct AlertIDFormatTests {
    static func straightforward(_ value: UInt128) -> String {
        var hex = String(value, radix: 16)
        hex = String(repeating: "0", count: 32 - hex.count) + hex
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    @Test func leadingZerosAndEveryNibbleAreWritten() {
        var values: [UInt128] = [0, 1, 0xF, 0xABC, UInt128.max, UInt128(UInt64.max), UInt128(UInt64.max) << 64,
                                 0x0123_4567_89AB_CDEF_FEDC_BA98_7654_3210]
        var state: UInt128 = 0x6c62272e07bb014262b821756295c58d
        for _ in 0..<200 {
            state = state &* 0x0000000001000000000000000000013B &+ 7
            values.append(state >> UInt128(state % 120))
        }
        for value in values {
            #expect(AlertID.uuidShaped(value) == Self.straightforward(value), "value \(String(value, radix: 16))")
        }
    }

    /// FNV-1a 128 over each part's UTF-8 and a 0xFF separator, written out here the plain way:
    /// the ids of alerts already in state databases must not change when the engine hashes a
    /// rule's part once and the time's digits without a string.
    static func independentID(_ parts: [String]) -> String {
        var value: UInt128 = 0x6c62272e07bb014262b821756295c58d
        for part in parts {
            for byte in Array(part.utf8) + [0xFF] {
                value ^= UInt128(byte)
                value = value &* 0x0000000001000000000000000000013B
            }
        }
        let hex = String(value, radix: 16)
        let digits = String(repeating: "0", count: 32 - hex.count) + hex
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(digits.dropFirst(range.lowerBound).prefix(range.count))
        }
        return groups.joined(separator: "-")
    }

    @Test func idsAreTheHashOfRuleFingerprintSymbolAndTimeDigits() {
        for milliseconds: Int64 in [0, 7, 1_727_875_800_000, -86_400_000, Int64.max, Int64.min + 1] {
            for (rule, fingerprint, symbol) in [("aapl-200", "above=200;rearm=0", "AAPL"), ("é", "", "BTC-USD")] {
                #expect(AlertID.make(rule: rule, fingerprint: fingerprint, symbol: symbol, time: Timestamp(milliseconds: milliseconds))
                        == Self.independentID([rule, fingerprint, symbol, String(milliseconds)]), "\(milliseconds)")
            }
        }
    }
}
