import PriceWatchCore

/// Phrases shared by several diagnostics, so the same mistake reads the same everywhere.
enum Wording {
    /// `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`.
    static func quotedList(_ items: [String], quote: String = "'", conjunction: String = "and") -> String {
        let quoted = items.map { quote + $0 + quote }
        guard quoted.count > 1, let last = quoted.last else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }

    /// `unknown provider 'yaho'; did you mean 'yahoo'?`, else with the names that exist:
    /// `unknown sink 'x' (sinks: out, ops)` or `unknown sink 'x' (no sinks are defined)`.
    static func unknownName(_ kind: String, _ name: String, among names: [String]) -> String {
        var message = "unknown \(kind) '\(name)'"
        if let suggestion = Suggestion.closest(to: name, among: names) {
            message += "; did you mean '\(suggestion)'?"
        } else if names.isEmpty {
            message += " (no \(kind)s are defined)"
        } else {
            message += " (\(kind)s: \(names.joined(separator: ", ")))"
        }
        return message
    }

    /// `unknown provider type 'yahooo'; did you mean 'yahoo'? (known types: replay, yahoo)`.
    static func unknownType(_ kind: String, _ type: String, known: [String]) -> String {
        var message = "unknown \(kind) type '\(type)'"
        if let suggestion = Suggestion.closest(to: type, among: known) { message += "; did you mean '\(suggestion)'?" }
        return message + " (known types: \(known.joined(separator: ", ")))"
    }

    /// Whether `text` matches `[a-z0-9][a-z0-9_.-]*` (rule ids), or with `allowingUppercase`
    /// and without `.`, `[A-Za-z0-9][A-Za-z0-9_-]*` (provider and sink names).
    static func isIdentifier(_ text: String, allowingUppercase: Bool = false, allowingDots: Bool = true) -> Bool {
        // By byte: every allowed character is ASCII, so any other byte fails.
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (allowingUppercase && (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte))
        }
        guard let first = text.utf8.first, isAlphanumeric(first) else { return false }
        return text.utf8.allSatisfy { byte in
            isAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || (allowingDots && byte == UInt8(ascii: "."))
        }
    }

    /// A string quoted for a message, with quotes and control characters escaped
    /// (``PriceWatchCore/ControlCharacters``: the one escaper of every text output).
    static func quoted(_ text: String) -> String {
        ControlCharacters.quoted(text)
    }
}
