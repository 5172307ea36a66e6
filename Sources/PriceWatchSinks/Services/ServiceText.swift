import PriceWatchCore

/// Text helpers the service sinks share: escaping for the services' HTML subsets, cutting a
/// text cleanly to a service's limit, and form and path encoding.
enum ServiceText {
    /// `&`, `<`, `>` and `"` as entities: what Telegram's HTML mode and Matrix's
    /// `formatted_body` need for text that is not markup.
    static func escapedHTML(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }

    /// The length services count (UTF-16 code units: Telegram's 4,096; never fewer than
    /// Unicode scalars, so also safe for limits counted in characters, as Pushover's 1,024).
    static func length(_ text: String) -> Int { text.utf16.count }

    /// `text` itself when it fits in `limit` (``length(_:)``), else its longest prefix of whole
    /// characters that fits with `marker` after it: never half a character, an emoji cut in two
    /// or a dangling line break.
    static func cut(_ text: String, to limit: Int, marker: String = "…") -> String {
        guard length(text) > limit else { return text }
        let room = max(0, limit - length(marker))
        var result = ""
        var used = 0
        for character in text {
            let size = String(character).utf16.count
            if used + size > room { break }
            result.append(character)
            used += size
        }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result + marker
    }

    /// Lines joined by line breaks, as many as fit in `limit`; when some do not, the last line
    /// says how many were left out (`… and 3 more`), so a cut never hides that there were more.
    static func lines(_ lines: [String], fitting limit: Int) -> String {
        var kept: [String] = []
        var used = 0
        for (index, line) in lines.enumerated() {
            let cost = length(line) + (kept.isEmpty ? 0 : 1)
            let remaining = lines.count - index - 1
            let reserve = remaining > 0 ? length("\n… and \(lines.count) more") : 0
            if used + cost + reserve > limit {
                if kept.isEmpty {
                    // Even the first line does not fit: as much of it as leaves room for the count.
                    return remaining > 0 ? cut(line, to: limit - reserve) + "\n… and \(remaining) more" : cut(line, to: limit)
                }
                return kept.joined(separator: "\n") + "\n… and \(lines.count - kept.count) more"
            }
            kept.append(line)
            used += cost
        }
        return kept.joined(separator: "\n")
    }

    /// `application/x-www-form-urlencoded`, every byte but the unreserved ones percent-encoded.
    static func form(_ fields: [(name: String, value: String)]) -> [UInt8] {
        Array(fields.map { percentEncoded($0.name) + "=" + percentEncoded($0.value) }.joined(separator: "&").utf8)
    }

    /// RFC 3986 percent-encoding of everything but the unreserved characters (a path segment,
    /// a form value).
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result.append("%")
                result.append(hex[Int(byte >> 4)])
                result.append(hex[Int(byte & 0x0F)])
            }
        }
        return result
    }

    /// `base` without trailing slashes, then `path` (which starts with `/`).
    static func join(_ base: String, _ path: String) -> String {
        var trimmed = Substring(base)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed) + path
    }
}
