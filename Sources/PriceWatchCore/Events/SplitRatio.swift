/// The ratio of a stock split: `new` shares for every `old` (`2-for-1`; a reverse split has
/// fewer new shares than old, `1-for-15`).
public struct SplitRatio: Sendable, Hashable, CustomStringConvertible {
    public let new: ExactDecimal
    public let old: ExactDecimal

    public init?(new: ExactDecimal, old: ExactDecimal) {
        guard new.isPositive, old.isPositive else { return nil }
        self.new = new
        self.old = old
    }

    /// `"2 : 1"`, `"1:15"`, `"1.5 : 1"` (Nasdaq's calendar) and `2:1` (as stored); a stock
    /// dividend the splits calendar lists as a percentage, `"8.000%"`, is `1.08:1`; nil for
    /// anything else.
    public init?(parsing text: String) {
        if text.hasSuffix("%"), text.utf8.count <= 20,
           let percent = ExactDecimal(String(text.dropLast().filter { $0 != " " })), percent.isPositive,
           percent.scaled <= 100_000 * ExactDecimal.unit {
            let one = ExactDecimal(scaled: ExactDecimal.unit)
            self.init(new: ExactDecimal(scaled: one.scaled + percent.scaled / 100), old: one)
            return
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, text.utf8.count <= 40,
              let new = ExactDecimal(String(parts[0].filter { $0 != " " })),
              let old = ExactDecimal(String(parts[1].filter { $0 != " " })) else { return nil }
        self.init(new: new, old: old)
    }

    /// Whether the split leaves fewer shares than before.
    public var isReverse: Bool { new < old }

    /// `2:1`, as stored and in JSON.
    public var stored: String { "\(new):\(old)" }

    /// `2-for-1`, `1-for-15 (reverse)`.
    public var description: String { "\(new)-for-\(old)" + (isReverse ? " (reverse)" : "") }
}
