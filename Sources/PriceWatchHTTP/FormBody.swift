import FoundationEssentials
import PriceWatchCore

/// An `application/x-www-form-urlencoded` body (`a=1&b=two+words`), read strictly: each name
/// once, percent escapes well formed, at most ``maximumBytes``. What the login and silence
/// forms post.
struct FormBody {
    static let maximumBytes = 4096

    let fields: [String: String]

    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    init(_ bytes: [UInt8]) throws(Invalid) {
        guard bytes.count <= Self.maximumBytes else { throw Invalid(description: "the form is larger than \(Self.maximumBytes) bytes") }
        var fields: [String: String] = [:]
        for pair in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), let value = Self.decode(parts.count > 1 ? parts[1] : []) else {
                throw Invalid(description: "the form is not form-encoded")
            }
            guard fields[name] == nil else { throw Invalid(description: "the field \(ControlCharacters.shown(name)) is given more than once") }
            fields[name] = value
        }
        self.fields = fields
    }

    subscript(name: String) -> String? { fields[name] }

    /// `+` as a space, `%XX` as its byte; nil for a bad escape or text that is not UTF-8.
    private static func decode(_ bytes: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                guard bytes.distance(from: index, to: bytes.endIndex) >= 3,
                      let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) else { return nil }
                out.append(high << 4 | low)
                index += 2
            } else {
                out.append(byte)
            }
            index += 1
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
