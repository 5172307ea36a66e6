/// The one rule for control characters in text we print: what counts as one, and how it is
/// shown so that a value can never end a line early or forge one of its own.
///
/// A control character is any C0 character (U+0000-U+001F, tab, CR and LF included), DEL,
/// any C1 character (U+0080-U+009F, NEL among them) and the Unicode line and paragraph
/// separators (U+2028, U+2029). Shown escaped: `\r`, `\n`, `\t`, and `\u{1b}` for the rest,
/// so the output stays one line per record and says what was there.
///
/// Every text output (tables, alert lines, messages, diagnostics, log lines) escapes through
/// this type; there is no second set of rules.
public enum ControlCharacters {
    /// Whether `scalar` is a control character in the sense above.
    @inlinable
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
    }

    /// Whether `text` holds any control character.
    public static func contains(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isControl)
    }

    /// `text` with every control character escaped; everything else unchanged (no quotes
    /// added, backslashes kept as they are). Returns `text` itself when there is nothing to do.
    public static func escaped(_ text: String) -> String {
        guard contains(text) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if isControl(scalar) { appendEscape(of: scalar, to: &result) } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// `text` in double quotes for a message, with `"` and `\` escaped as well as every control
    /// character, so the quoted value cannot be mistaken for the end of the quote.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default:
                if isControl(scalar) { appendEscape(of: scalar, to: &result) } else { result.unicodeScalars.append(scalar) }
            }
        }
        return result + "\""
    }

    /// `text` as a message shows a value it read: ``quoted(_:)``, and only the first `limit`
    /// characters of a longer value, followed by `…` (a bad value may be megabytes long).
    public static func shown(_ text: String, limit: Int = 60) -> String {
        guard let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex), end < text.endIndex else {
            return quoted(text)
        }
        return quoted(String(text[..<end])) + "…"
    }

    /// `text` escaped (``escaped(_:)``) and, when longer than `limit` characters, cut there
    /// and followed by `…`: for messages that put a value in quotes of their own.
    public static func shortened(_ text: String, limit: Int = 60) -> String {
        guard let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex), end < text.endIndex else {
            return escaped(text)
        }
        return escaped(String(text[..<end])) + "…"
    }

    private static func appendEscape(of scalar: Unicode.Scalar, to result: inout String) {
        switch scalar {
        case "\r": result += "\\r"
        case "\n": result += "\\n"
        case "\t": result += "\\t"
        default: result += "\\u{" + String(scalar.value, radix: 16) + "}"
        }
    }
}
