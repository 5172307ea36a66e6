/// Deterministic alert ids: the same firing always gets the same id.
///
/// The id is a 128-bit FNV-1a hash of the rule id, the rule's fingerprint, the symbol and the
/// quote time, written as a UUID-shaped lowercase hex string (`0f3c…-…`). A rule fires at most
/// once per quote and quote times of a symbol only increase, so distinct firings get distinct
/// ids; a firing replayed after a crash gets the id it had before.
public enum AlertID {
    public static func make(rule: String, fingerprint: String, symbol: String, time: Timestamp) -> String {
        var hash = FNV1a128()
        hash.combine(rule)
        hash.combine(fingerprint)
        hash.combine(symbol)
        hash.combine(String(time.milliseconds))
        let value = hash.value
        var hex = String(value, radix: 16)
        hex = String(repeating: "0", count: 32 - hex.count) + hex
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
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
}
