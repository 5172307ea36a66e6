/// A minimal writer for one-line JSON objects with the number rules of `docs/commands.md`: prices and
/// percents are plain decimal JSON numbers (`226.78`, never `2.2678e2`), times RFC 3339 UTC.
///
/// Hand-written on purpose: `JSONEncoder` cannot print an exact decimal as a bare number.
public struct JSONWriter {
    private var text = "{"
    private var first = true

    public init() {}

    private mutating func key(_ name: String) {
        if !first { text += "," }
        first = false
        text += Self.quoted(name) + ":"
    }

    public mutating func string(_ name: String, _ value: String?) {
        key(name)
        text += value.map(Self.quoted) ?? "null"
    }

    public mutating func number(_ name: String, _ value: ExactDecimal?) {
        key(name)
        text += value?.description ?? "null"
    }

    public mutating func integer(_ name: String, _ value: Int?) {
        key(name)
        text += value.map(String.init) ?? "null"
    }

    public mutating func time(_ name: String, _ value: Timestamp?) {
        string(name, value?.rfc3339)
    }

    public mutating func boolean(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    /// A value already written as JSON (an object from another writer), as it is.
    public mutating func raw(_ name: String, _ json: String?) {
        key(name)
        text += json ?? "null"
    }

    /// An array of strings.
    public mutating func strings(_ name: String, _ values: [String]) {
        key(name)
        text += "[" + values.map(Self.quoted).joined(separator: ",") + "]"
    }

    /// An array of objects, each a finished ``result`` of another writer.
    public mutating func objects(_ name: String, _ objects: [String]) {
        key(name)
        text += "[" + objects.joined(separator: ",") + "]"
    }

    /// The finished object.
    public var result: String { text + "}" }

    /// A JSON string literal with the required escapes.
    public static func quoted(_ value: String) -> String {
        // Most strings (ids, symbols, rule names, messages) need no escape: one copy.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + value + "\""
        }
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
