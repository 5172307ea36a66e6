/// A small deterministic generator (SplitMix64): a test's random inputs are the same on every
/// run, so a failing one can be run again.
public struct SeededRandom: Sendable {
    public var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `percent`/100.
    public mutating func chance(_ percent: UInt64) -> Bool { next() % 100 < percent }

    /// `bytes` with one to three random edits: a byte of `alphabet` written over one, inserted
    /// or a byte removed (the mutations of the differential tests of fast paths).
    public mutating func mutated(_ bytes: [UInt8], alphabet: [UInt8]) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<(1 + Int(next() % 3)) where !bytes.isEmpty {
            let position = Int(next() % UInt64(bytes.count))
            let byte = alphabet[Int(next() % UInt64(alphabet.count))]
            switch next() % 3 {
            case 0: bytes[position] = byte
            case 1: bytes.insert(byte, at: position)
            default: bytes.remove(at: position)
            }
        }
        return bytes
    }
}
