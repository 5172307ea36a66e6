/// Percent-encoding of URL parts (RFC 3986): symbols such as `^GSPC`, `EURUSD=X` or
/// `BRK.B` and free-text queries go into paths and query strings unchanged in meaning.
public enum URLText {
    /// Encodes every byte but the unreserved characters `A-Z a-z 0-9 - . _ ~`.
    public static func encode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                result += "%"
                result.unicodeScalars.append(hex[Int(byte >> 4)])
                result.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return result
    }

    /// `base` without trailing slashes, so `base + "/path"` has exactly one.
    public static func trimmedBase(_ base: String) -> String {
        var base = Substring(base)
        while base.hasSuffix("/") { base.removeLast() }
        return String(base)
    }
}
