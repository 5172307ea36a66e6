import PriceWatchCore
import PriceWatchTOML

/// One `[[rule]]` as read from its file, before the main file's defaults are applied.
///
/// Made even when the rule has errors, so that one bad rule still takes part in the checks
/// across rules (duplicate ids, unknown providers and sinks). Handed on as it is read and not
/// kept: a file's drafts are never all held at once.
struct RuleDraft {
    /// Reports about this rule: its file, its path (`rule[2]`) and its label (`rule 'aapl-200'`).
    let reader: TableReader
    /// The id when it is written as a non-empty string (valid or not), for duplicate checks.
    let id: String?
    /// Where the `id` key is written, for the message about a duplicate.
    let idPosition: TOMLPosition?
    /// `provider` as written, when it is a non-empty string.
    let provider: String?
    /// `notify` as written, when it is a valid list of names.
    let notify: [String]?
    /// The rule with `provider` and `notify` as written (`nil` and `[]` when absent), when
    /// nothing in the rule is wrong.
    var rule: Rule?
    /// The event rule, for a table with `event`, with `notify` as written, when nothing in it
    /// is wrong (``rule`` is then nil). A portfolio's holdings are filled in by the resolver.
    var eventRule: EventRule? = nil
}
