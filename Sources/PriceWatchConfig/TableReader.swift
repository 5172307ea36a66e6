import FoundationEssentials
import PriceWatchCore
import PriceWatchTOML

/// Reads the keys of one TOML table of a `ConfigFile`, reporting every problem to the file at
/// the key's position, in the words of `docs/commands.md`: what was expected, what was found.
///
/// Each accessor returns `nil` both when the key is absent and when its value is wrong (the
/// latter already reported), so callers read every key, collect every error, and never stop
/// at the first one.
struct TableReader {
    /// How messages name the table and its keys.
    enum Subject {
        /// The main file's root table: `interval: ...`, `unknown key 'x'`.
        case root
        /// A table named by its key path: `providers.yahoo.interval: ...`,
        /// `unknown key 'x' in providers.yahoo`.
        case table
        /// A rule, named by its label (`rule 'aapl-200'`): `rule 'aapl-200': above: ...`,
        /// `unknown key 'x' in rule 'aapl-200'`.
        case rule(String)
        /// An element of an array of tables named like a rule, `KIND 'ID'` when its id is
        /// written, else `KIND #NUMBER` (`rule #3`); the label is made only for a message.
        case element(kind: String, number: Int, id: String?)

        /// The label of a rule or an element; nil for a table.
        var label: String? {
            switch self {
            case .root, .table: nil
            case .rule(let label): label
            case .element(let kind, let number, let id): id.map { "\(kind) '\($0)'" } ?? "\(kind) #\(number)"
            }
        }
    }

    let file: ConfigFile
    let path: TOMLKeyPath
    let values: TOMLTable
    let subject: Subject

    init(file: ConfigFile, path: TOMLKeyPath, values: TOMLTable, subject: Subject) {
        self.file = file
        self.path = path
        self.values = values
        self.subject = subject
    }

    subscript(key: String) -> ConfigValue? { values[key] }

    func has(_ key: String) -> Bool { values.contains(key) }

    /// The keys as written in the file, in file order.
    var keys: [String] { values.keys }

    /// How messages name the table: `providers.yahoo`, `rule 'aapl-200'` (empty for the root).
    var tableName: String {
        switch subject {
        case .root: ""
        case .table: path.description
        case .rule, .element: subject.label ?? ""
        }
    }

    /// How messages name a key: `interval`, `providers.yahoo.interval`, `rule 'aapl-200': above`.
    func name(_ key: String) -> String {
        if let label = subject.label { return "\(label): \(key)" }
        return path.appending(key).description
    }

    /// An error about the value of `key`, prefixed with its name, at the key's position.
    func error(_ message: String, key: String) {
        file.error("\(name(key)): \(message)", at: path.appending(key))
    }

    /// An error about the value of `key` at a deeper place (an array element, an inline
    /// table's key), prefixed with the key's name.
    func error(_ message: String, key: String, at detail: TOMLKeyPath) {
        file.error("\(name(key)): \(message)", at: detail)
    }

    /// An error about the table as a whole, at its header.
    func tableError(_ message: String) {
        file.error(tableName.isEmpty ? message : "\(tableName): \(message)", at: path)
    }

    /// An error about the table as a whole (prefixed with its name), at the position of `key`.
    func tableError(_ message: String, at key: String) {
        file.error(tableName.isEmpty ? message : "\(tableName): \(message)", at: path.appending(key))
    }

    /// A warning about the table as a whole, at its header.
    func tableWarning(_ message: String) {
        file.warning(tableName.isEmpty ? message : "\(tableName): \(message)", at: path)
    }

    // MARK: - Keys

    /// Reports every key not in `allowed`, suggesting the closest allowed key, or listing them
    /// all when none is close.
    func checkUnknownKeys(allowed: [String]) {
        for entry in values.entries where !allowed.contains(entry.key) {
            reportUnknownKey(entry.key, allowed: allowed)
        }
    }

    /// Reports `key` as unknown, suggesting the closest of `allowed`, or listing them all when
    /// none is close.
    func reportUnknownKey(_ key: String, allowed: [String]) {
        var message = "unknown key '\(key)'"
        if !tableName.isEmpty { message += " in \(tableName)" }
        if let suggestion = Suggestion.closest(to: key, among: allowed) {
            message += "; did you mean '\(suggestion)'?"
            file.suggested(suggestion, in: path)
        } else {
            message += " (expected one of: \(allowed.joined(separator: ", ")))"
        }
        file.error(message, at: path.appending(key))
    }

    /// Reports `key` as missing when it is; returns whether it is present.
    @discardableResult
    func require(_ key: String, _ detail: String = "") -> Bool {
        if has(key) { return true }
        missing("missing required key '\(key)'\(detail)", keys: [key])
        return false
    }

    /// Reports that none of `keys` is given, at the table; left out when an unknown key of the
    /// table is a misspelling of one of them (that key's error says it all).
    func missing(_ message: String, keys: [String]) {
        file.missing(tableName.isEmpty ? message : "\(tableName): \(message)", keys: keys, in: path)
    }

    // MARK: - Typed values

    /// A string; `nil` when absent or not a string.
    func string(_ key: String, expected: String = "a string") -> String? {
        guard let value = values[key] else { return nil }
        guard case .string(let text) = value else {
            error("expected \(expected), found \(value.kindDescription)", key: key)
            return nil
        }
        return text
    }

    /// A string that is not empty.
    func nonEmptyString(_ key: String, expected: String = "a string") -> String? {
        guard let text = string(key, expected: expected) else { return nil }
        guard !text.isEmpty else {
            error("expected \(expected), found an empty string", key: key)
            return nil
        }
        return text
    }

    func bool(_ key: String) -> Bool? {
        guard let value = values[key] else { return nil }
        guard case .boolean(let flag) = value else {
            error("expected a boolean (true or false), found \(value.kindDescription)", key: key)
            return nil
        }
        return flag
    }

    /// A duration string (`"5m"`, `"1h30m"`).
    func duration(_ key: String) -> RuleDuration? {
        guard let value = values[key] else { return nil }
        guard case .string(let text) = value else {
            error("expected a duration such as \"30s\", \"5m\", \"1h30m\" or \"7d\", found \(value.kindDescription)", key: key)
            return nil
        }
        do {
            return try RuleDuration(parsing: text)
        } catch {
            self.error(error.description, key: key)
            return nil
        }
    }

    /// An exact decimal from a TOML integer or float.
    ///
    /// A float's value is taken from its literal text as written (`3.135` is exactly 3.135,
    /// `1.123456789` has too many fractional digits), never from the nearest `Double`.
    func decimal(_ key: String) -> ExactDecimal? {
        guard let value = values[key] else { return nil }
        switch value {
        case .integer(let integer):
            guard let decimal = ExactDecimal(exactly: integer) else {
                error(ExactDecimal.ParseError.outOfRange(String(integer)).description, key: key)
                return nil
            }
            return decimal
        case .float(let float):
            let double = float.value
            guard double.isFinite else {
                error("expected a number, found \(double.isNaN ? "nan" : double < 0 ? "-inf" : "inf")", key: key)
                return nil
            }
            let literal = float.literal.utf8.contains(UInt8(ascii: "_")) ? float.literal.filter { $0 != "_" } : float.literal
            // The literal is trusted only when it reads back as the very value parsed.
            if Double(literal) == double {
                do {
                    return try ExactDecimal(parsing: literal)
                } catch {
                    self.error(error.description, key: key)
                    return nil
                }
            }
            guard let decimal = ExactDecimal(double, roundedToFractionDigits: ExactDecimal.scale) else {
                error(ExactDecimal.ParseError.outOfRange("\(double)").description, key: key)
                return nil
            }
            guard Double(decimal.description) == double else {
                error("expected at most \(ExactDecimal.scale) fractional digits, found \(double)", key: key)
                return nil
            }
            return decimal
        case .string(let text):
            error("expected a number, found \(value.kindDescription)" + Self.numberHint(text, key: key), key: key)
            return nil
        default:
            error("expected a number, found \(value.kindDescription)", key: key)
            return nil
        }
    }

    /// `; write fall = 5 (a number, without quotes or '%')` when a string reads as a number
    /// (`fall = "5%"`, `above = "200"`); empty otherwise.
    static func numberHint(_ text: String, key: String) -> String {
        var number = Substring(text.trimmingCharacters(in: .whitespaces))
        let percent = number.hasSuffix("%")
        if percent { number = number.dropLast().drop(while: { $0 == " " }) }
        number = Substring(number.trimmingCharacters(in: .whitespaces))
        guard !number.isEmpty, (try? ExactDecimal(parsing: String(number))) != nil else { return "" }
        return "; write \(TOMLKeyPath.quotedIfNeeded(key)) = \(number) (a number, without quotes\(percent ? " or '%'" : ""))"
    }

    /// An integer of at least 1.
    func positiveInteger(_ key: String) -> Int? {
        guard let value = values[key] else { return nil }
        guard case .integer(let integer) = value else {
            error("expected a positive integer, found \(value.kindDescription)", key: key)
            return nil
        }
        guard integer >= 1 else {
            error("expected a positive integer, found \(integer)", key: key)
            return nil
        }
        return integer
    }

    /// A table whose values are all strings, in file order; a non-string value is reported at its key.
    func stringTable(_ key: String) -> [(key: String, value: String)]? {
        guard let value = values[key] else { return nil }
        guard case .table(let members) = value else {
            error("expected a table of strings, found \(value.kindDescription)", key: key)
            return nil
        }
        let memberPath = path.appending(key)
        var pairs: [(key: String, value: String)] = []
        var valid = true
        for entry in members.entries {
            let name = entry.key, member = entry.value
            guard case .string(let text) = member else {
                error("expected a string, found \(member.kindDescription)", key: key, at: memberPath.appending(name))
                valid = false
                continue
            }
            pairs.append((name, text))
        }
        return valid ? pairs : nil
    }

    /// An array of strings. A non-string element is reported at the element.
    func stringArray(_ key: String, expected: String) -> [String]? {
        guard let value = values[key] else { return nil }
        guard case .array(let array) = value else {
            error("expected \(expected), found \(value.kindDescription)", key: key)
            return nil
        }
        let elements = array.elements
        var strings: [String] = []
        var valid = true
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                error("expected \(expected), found \(element.kindDescription) at index \(index)",
                      key: key, at: path.appending(key).appending(index: index))
                valid = false
                continue
            }
            strings.append(text)
        }
        return valid ? strings : nil
    }

    /// An array of names (`notify`, `fallback`) without repeats: a repeat is reported at the
    /// element, and so is an empty array unless `allowingEmpty`. `nil` when anything is wrong.
    func nameList(_ key: String, kind: String, allowingEmpty: Bool = false) -> [String]? {
        guard let names = stringArray(key, expected: "an array of \(kind) names") else { return nil }
        var valid = true
        if names.isEmpty && !allowingEmpty {
            error("expected at least one \(kind) name, found an empty array", key: key)
            valid = false
        }
        var seen: Set<String> = []
        for (index, name) in names.enumerated() where !seen.insert(name).inserted {
            error("\(kind) '\(name)' is listed twice", key: key, at: path.appending(key).appending(index: index))
            valid = false
        }
        return valid ? names : nil
    }

    /// Reports each of `names` (the value of `key`) that is not in `declared`, at its element.
    func checkDeclared(_ names: [String], key: String, kind: String, declared: [String]) {
        for (index, name) in names.enumerated() where !declared.contains(name) {
            error(Wording.unknownName(kind, name, among: declared), key: key, at: path.appending(key).appending(index: index))
        }
    }

    /// A table of tables (`[providers.NAME]`), as `(name, table)` pairs in file order; a
    /// member that is not a table is reported.
    func tables(_ key: String, expected: String) -> [(name: String, values: TOMLTable)]? {
        guard let value = values[key] else { return nil }
        guard case .table(let members) = value else {
            error("expected \(expected), found \(value.kindDescription)", key: key)
            return nil
        }
        let memberPath = path.appending(key)
        var result: [(name: String, values: TOMLTable)] = []
        for entry in members.entries {
            let name = entry.key, member = entry.value
            guard case .table(let table) = member else {
                file.error("\(memberPath.appending(name)): expected a table, found \(member.kindDescription)",
                           at: memberPath.appending(name))
                continue
            }
            result.append((name, table))
        }
        return result
    }

    /// A reader for the nested table at `key`, named by its key path.
    func nested(_ key: String, values: TOMLTable) -> TableReader {
        TableReader(file: file, path: path.appending(key), values: values, subject: .table)
    }
}
