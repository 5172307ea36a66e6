/// RFC 3986 percent-encoding: every byte but the unreserved characters `A-Z a-z 0-9 - . _ ~`
/// as `%XX`. Symbols (`^GSPC`, `EURUSD=X`) in providers' paths and queries, tokens in
/// services' paths and form values, and the encoded forms of a secret the redaction looks for
/// all use this one definition.
public enum PercentEncoding {
    public static func encoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(hex[Int(byte >> 4)])
                result.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return result
    }
}
