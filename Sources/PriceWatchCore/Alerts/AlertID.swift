/// Deterministic alert ids: the same firing always gets the same id.
///
/// The id is a 128-bit FNV-1a hash of the rule id, the rule's fingerprint, the symbol and the
/// quote time, written as a UUID-shaped lowercase hex string (`0f3c…-…`). A rule fires at most
/// once per quote and quote times of a symbol only increase, so distinct firings get distinct
/// ids; a firing replayed after a crash gets the id it had before.
public enum AlertID {
    public static func make(rule: String, fingerprint: String, symbol: String, time: Timestamp) -> String {
        make(prefix: prefix(rule: rule, fingerprint: fingerprint), symbol: symbol, time: time)
    }

    /// The hash of a rule's part of its alerts' ids, which the engine keeps per rule: the
    /// fingerprint is most of the bytes hashed, and a bar close fires thousands of alerts.
    static func prefix(rule: String, fingerprint: String) -> FNV1a128 {
        var hash = FNV1a128()
        hash.combine(rule)
        hash.combine(fingerprint)
        return hash
    }

    /// The id of an alert of the rule whose ``prefix(rule:fingerprint:)`` is `prefix`.
    static func make(prefix: FNV1a128, symbol: String, time: Timestamp) -> String {
        var hash = prefix
        hash.combine(symbol)
        hash.combine(decimal: time.milliseconds)
        return uuidShaped(hash.value)
    }

    /// 32 lowercase hex digits (leading zeros kept) in groups of 8-4-4-4-12.
    static func uuidShaped(_ value: UInt128) -> String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            let digits: StaticString = "0123456789abcdef"
            var position = 0
            for nibble in 0..<32 {
                if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 {
                    buffer[position] = UInt8(ascii: "-")
                    position += 1
                }
                let digit = Int(truncatingIfNeeded: value >> UInt128(4 * (31 - nibble))) & 0xF
                buffer[position] = digits.utf8Start[digit]
                position += 1
            }
            return position
        }
    }
}

/// FNV-1a, 128-bit variant: small, fast and stable across runs and platforms
/// (unlike `Hasher`, which is seeded per process).
struct FNV1a128 {
    private(set) var value: UInt128 = 0x6c62272e07bb014262b821756295c58d
    private static let prime: UInt128 = 0x0000000001000000000000000000013B

    mutating func combine(_ text: String) {
        for byte in text.utf8 {
            value ^= UInt128(byte)
            value = value &* Self.prime
        }
        // A separator byte that cannot occur in UTF-8 keeps ("ab","c") apart from ("a","bc").
        value ^= 0xFF
        value = value &* Self.prime
    }

    /// The same as `combine(String(number))`, without making the string.
    mutating func combine(decimal number: Int64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes: "-" and 19 digits fit
        withUnsafeMutableBytes(of: &digits) { buffer in
            var magnitude = number.magnitude
            var end = buffer.count
            repeat {
                end -= 1
                buffer[end] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if number < 0 {
                end -= 1
                buffer[end] = UInt8(ascii: "-")
            }
            for byte in buffer[end...] {
                value ^= UInt128(byte)
                value = value &* Self.prime
            }
        }
        value ^= 0xFF
        value = value &* Self.prime
    }
}
