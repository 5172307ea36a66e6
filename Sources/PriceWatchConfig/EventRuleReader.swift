import PriceWatchCore
import PriceWatchTOML

/// Reads a `[[rule]]` table with `event` (`docs/events.md`): an event rule, watching a
/// company's calendar or its news instead of its price.
///
/// Its keys: `id`, `event`, `symbol`/`symbols` or `portfolio`, `before` (calendar events),
/// `match` (news), `notify`, `enabled`. Every other rule key is reported at its line, saying
/// why it does not apply.
enum EventRuleReader {
    /// The keys an event rule takes.
    static let keys: [RuleKey] = [.id, .event, .symbol, .symbols, .portfolio, .before, .match, .notify, .enabled]

    /// The most terms `match` takes.
    static let maximumTerms = 100

    static func read(_ reader: RuleTableReader, id writtenID: String?, idPosition: TOMLPosition?,
                     errorsBefore errors: Int) -> RuleDraft {
        let file = reader.file
        let id = RuleReader.readID(reader)
        let event = readEvent(reader)
        for key in RuleKey.allCases where reader.has(key) && !keys.contains(key) {
            let why = RuleKeys.conditions.contains(key)
                ? "an event rule has no price condition: it notifies when the event comes"
                : "it does not apply to event rules"
            reader.tableError("'\(key.name)': \(why) (event = \(Wording.quoted(event?.rawValue ?? "…")))", at: key)
        }
        var symbols: [String]?
        var portfolio: String?
        if reader.has(.portfolio) {
            for key in [RuleKey.symbol, .symbols] where reader.has(key) {
                reader.tableError("'portfolio' and '\(key.name)' are both given; an event rule watches one of them", at: key)
            }
            portfolio = reader.nonEmptyString(.portfolio, expected: "a portfolio name (a file of portfolios.d)")
            symbols = []
        } else {
            symbols = RuleReader.readSymbols(reader)
        }
        var before: RuleDuration?
        if reader.has(.before) {
            if event == .news {
                reader.error("'before' applies to calendar events (" + Wording.quotedList(EventKind.allCases.filter(\.isCalendarDate).map(\.rawValue))
                             + "); news is sent when the headline appears", key: .before)
            } else {
                before = reader.duration(.before)
            }
        }
        var match = HeadlineMatch()
        if reader.has(.match) {
            if let event, event != .news {
                reader.error("'match' applies only to event = \"news\" (words a headline must contain), not to '\(event.rawValue)'",
                             key: .match)
            } else if let terms = reader.stringArray(.match, expected: "an array of words such as [\"guidance\", \"recall\"]") {
                match = readTerms(terms, reader: reader) ?? match
            }
        }
        let notify = reader.nameList(.notify, kind: "sink")
        let enabled = reader.bool(.enabled)
        var rule: EventRule?
        if file.errorCount == errors, let id, let event, let symbols {
            rule = EventRule(id: id, event: event, symbols: symbols, portfolio: portfolio, before: before, match: match,
                             notify: notify ?? [], enabled: enabled ?? true)
        }
        return RuleDraft(reader: reader.table, id: writtenID, idPosition: idPosition, provider: nil, notify: notify,
                         rule: nil, eventRule: rule)
    }

    private static func readEvent(_ reader: RuleTableReader) -> EventKind? {
        guard let text = reader.string(.event, expected: "an event name") else { return nil }
        guard let event = EventKind(rawValue: text) else {
            reader.error("expected one of " + Wording.quotedList(EventKind.names, conjunction: "or") + ", found \(Wording.quoted(text))",
                         key: .event)
            return nil
        }
        return event
    }

    /// `match`'s terms: each non-empty, printable, without control characters; at most
    /// ``maximumTerms``.
    private static func readTerms(_ terms: [String], reader: RuleTableReader) -> HeadlineMatch? {
        guard !terms.isEmpty else {
            reader.error("expected at least one word, found an empty array (leave 'match' out to get every headline)", key: .match)
            return nil
        }
        guard terms.count <= maximumTerms else {
            reader.error("expected at most \(maximumTerms) words, found \(terms.count)", key: .match)
            return nil
        }
        var valid = true
        for (index, term) in terms.enumerated() {
            let at = reader.path.appending("match").appending(index: index)
            if term.allSatisfy(\.isWhitespace) {
                reader.error("expected a word, found \(Wording.quoted(term))", key: .match, at: at)
                valid = false
            } else if term.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                reader.error("expected a word without control characters, found \(Wording.quoted(term))", key: .match, at: at)
                valid = false
            }
        }
        return valid ? HeadlineMatch(terms) : nil
    }
}
