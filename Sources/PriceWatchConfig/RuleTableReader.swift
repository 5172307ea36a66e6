import PriceWatchCore
import PriceWatchTOML

/// Reads the keys of one `[[rule]]` table: a ``TableReader`` that knows, from one pass over
/// the table, which ``RuleKey``s are written.
///
/// A key that is not written is answered from the set without a search of the table; with
/// two dozen keys asked about and four or five written, that was most of reading a rule. The
/// accessors mean what ``TableReader``'s do.
struct RuleTableReader {
    /// The reader of the table, for messages and for anything not a rule key.
    let table: TableReader
    /// The rule keys written in the table.
    let written: RuleKeys

    /// Reads `table`, reporting each of its keys that is not a rule key (in file order).
    init(_ table: TableReader) {
        var written = RuleKeys()
        for entry in table.values.entries {
            if let key = RuleKey.named(entry.key) {
                written.insert(key)
            } else {
                table.reportUnknownKey(entry.key, allowed: RuleReader.keys)
            }
        }
        self.table = table
        self.written = written
    }

    var file: ConfigFile { table.file }
    var path: TOMLKeyPath { table.path }

    func has(_ key: RuleKey) -> Bool { written.contains(key) }

    subscript(key: RuleKey) -> ConfigValue? { written.contains(key) ? table[key.name] : nil }

    /// The condition keys written, in file order.
    var conditionKeys: [RuleKey] {
        let conditions = written.intersection(.conditions)
        switch conditions.count {
        case 0: return []
        case 1: return conditions.keys
        // Several: their order in the file decides which one the message names.
        default: return table.keys.compactMap(RuleKey.named).filter { conditions.contains($0) }
        }
    }

    func string(_ key: RuleKey, expected: String) -> String? {
        written.contains(key) ? table.string(key.name, expected: expected) : nil
    }

    func nonEmptyString(_ key: RuleKey, expected: String) -> String? {
        written.contains(key) ? table.nonEmptyString(key.name, expected: expected) : nil
    }

    func bool(_ key: RuleKey) -> Bool? {
        written.contains(key) ? table.bool(key.name) : nil
    }

    func duration(_ key: RuleKey) -> RuleDuration? {
        written.contains(key) ? table.duration(key.name) : nil
    }

    func decimal(_ key: RuleKey) -> ExactDecimal? {
        written.contains(key) ? table.decimal(key.name) : nil
    }

    func stringArray(_ key: RuleKey, expected: String) -> [String]? {
        written.contains(key) ? table.stringArray(key.name, expected: expected) : nil
    }

    func nameList(_ key: RuleKey, kind: String) -> [String]? {
        written.contains(key) ? table.nameList(key.name, kind: kind) : nil
    }

    /// Reports `key` as missing when it is not written; returns whether it is.
    func require(_ key: RuleKey, _ detail: String = "") -> Bool {
        if written.contains(key) { return true }
        table.missing("missing required key '\(key.name)'\(detail)", keys: [key.name])
        return false
    }

    func error(_ message: String, key: RuleKey) { table.error(message, key: key.name) }

    func error(_ message: String, key: RuleKey, at detail: TOMLKeyPath) { table.error(message, key: key.name, at: detail) }

    func tableError(_ message: String, at key: RuleKey) { table.tableError(message, at: key.name) }

    func missing(_ message: String, keys: [RuleKey]) { table.missing(message, keys: keys.map(\.name)) }
}
