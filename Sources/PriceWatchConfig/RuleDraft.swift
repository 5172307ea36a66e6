import PriceWatchCore

/// One `[[rule]]` as read from its file, before the main file's defaults are applied.
///
/// Kept even when the rule has errors, so that one bad rule still takes part in the checks
/// across rules (duplicate ids, unknown providers and sinks).
///
/// A class: a rule set holds one draft per rule (100,000 in a large configuration), and as a
/// value every growth of that array and every pass over it copied the whole rule.
final class RuleDraft {
    /// Reports about this rule: its file, its path (`rule[2]`) and its label (`rule 'aapl-200'`).
    let reader: TableReader
    /// The id when it is written as a non-empty string (valid or not), for duplicate checks.
    let id: String?
    /// `provider` as written, when it is a non-empty string.
    let provider: String?
    /// `notify` as written, when it is a valid list of names.
    let notify: [String]?
    /// The rule with `provider` and `notify` as written (`nil` and `[]` when absent), when
    /// nothing in the rule is wrong.
    let rule: Rule?

    init(reader: TableReader, id: String?, provider: String?, notify: [String]?, rule: Rule?) {
        self.reader = reader
        self.id = id
        self.provider = provider
        self.notify = notify
        self.rule = rule
    }
}
