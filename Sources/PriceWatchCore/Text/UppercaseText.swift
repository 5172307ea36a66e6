/// Upper case for symbols and market states, which are nearly always upper case already.
public enum UppercaseText {
    /// `text.uppercased()`, or `text` itself when there is nothing to change (only ASCII, no
    /// `a` to `z`): the decoders and the health check upper-case every symbol of every poll,
    /// and `uppercased()` builds a new string each time (1.2% of a 50,000-symbol cycle).
    public static func uppercased(_ text: String) -> String {
        let lowerA = UInt8(ascii: "a"), lowerZ = UInt8(ascii: "z")
        if text.utf8.allSatisfy({ $0 < 0x80 && ($0 < lowerA || $0 > lowerZ) }) { return text }
        return text.uppercased()
    }
}
