import Testing
@testable import PriceWatchCore

@Suite("Diagnostics and suggestions")
struct DiagnosticTests {
    @Test("rendering forms", arguments: [
        (Diagnostic.error("unknown key 'abve' in rule 'x'", path: "rules.d/a.toml", line: 3, column: 1),
         "rules.d/a.toml:3:1: error: unknown key 'abve' in rule 'x'"),
        (.error("malformed row", path: "data.csv", line: 12), "data.csv:12: error: malformed row"),
        (.warning("no rules", path: "/etc/pricewatch/pricewatch.toml"), "/etc/pricewatch/pricewatch.toml: warning: no rules"),
        (.warning("deprecated", path: "a.toml", line: 7, column: 19), "a.toml:7:19: warning: deprecated"),
        (.error("cannot read", path: "missing.toml"), "missing.toml: error: cannot read"),
        // A column without a line is not shown.
        (.error("odd", path: "a.toml", column: 5), "a.toml: error: odd"),
        (Diagnostic(.error, path: "b.toml", line: 1, column: 2, message: "m"), "b.toml:1:2: error: m"),
    ])
    func rendering(diagnostic: Diagnostic, text: String) {
        #expect(diagnostic.description == text)
        #expect("\(diagnostic)" == text)
    }

    @Test("containsErrors ignores warnings")
    func containsErrors() {
        #expect(![Diagnostic]().containsErrors)
        #expect(![Diagnostic.warning("w", path: "a")].containsErrors)
        #expect([Diagnostic.warning("w", path: "a"), .error("e", path: "a")].containsErrors)
    }

    @Test("sortedByLocation sorts by path, line, column and is stable")
    func sorted() {
        let input: [Diagnostic] = [
            .error("b3", path: "b.toml", line: 3),
            .error("a10", path: "a.toml", line: 10, column: 1),
            .error("a2-first", path: "a.toml", line: 2, column: 5),
            .warning("a-nowhere", path: "a.toml"),
            .error("a2c1", path: "a.toml", line: 2, column: 1),
            .error("a2-second", path: "a.toml", line: 2, column: 5),
            .error("b1", path: "b.toml", line: 1),
            .error("a2-third", path: "a.toml", line: 2, column: 5),
            .error("A", path: "A.toml", line: 99),
            .error("a2-nocolumn", path: "a.toml", line: 2),
        ]
        #expect(input.sortedByLocation().map(\.message) == [
            "A", "a-nowhere", "a2-nocolumn", "a2c1", "a2-first", "a2-second", "a2-third", "a10", "b1", "b3",
        ])
        // Sorting sorted output changes nothing; equal locations keep their order.
        #expect(input.sortedByLocation().sortedByLocation() == input.sortedByLocation())
        let same = (0..<50).map { Diagnostic.error("m\($0)", path: "p", line: 1, column: 1) }
        #expect(same.sortedByLocation() == same)
    }

    @Test("Suggestion.closest", arguments: [
        ("abvoe", ["above", "below", "rise"], String?.some("above")),
        ("abov", ["above", "below"], "above"),
        ("ABOVE", ["above", "below"], "above"),
        ("symbl", ["rule", "symbol", "price"], "symbol"),
        ("cooldwn", ["cooldown", "once"], "cooldown"),
        ("coldwn", ["cooldown"], "cooldown"),
        ("cldwn", ["cooldown"], nil),
        // Three edits in six letters is more than a third: no suggestion.
        ("belxxx", ["below"], nil),
        ("belxx", ["below"], nil),
        ("belowxx", ["below"], "below"),
        ("xyz", ["above", "below"], nil),
        ("a", ["b", "ab"], "b"),
        ("", ["a", "b"], "a"),
        ("", ["ab"], nil),
        ("bellow", ["below", "bellows"], "below"),
        ("notfiy", ["notify", "once"], "notify"),
        ("x", [], nil),
    ])
    func closest(word: String, candidates: [String], expected: String?) {
        #expect(Suggestion.closest(to: word, among: candidates) == expected)
    }

    @Test("editDistance counts adjacent transpositions as one edit", arguments: [
        ("", "", 0), ("", "abc", 3), ("abc", "", 3), ("abc", "abc", 0), ("ab", "ba", 1), ("abvoe", "above", 1),
        ("kitten", "sitting", 3), ("flaw", "lawn", 2), ("ca", "abc", 3), ("symbl", "symbol", 1), ("a", "b", 1),
    ])
    func editDistance(a: String, b: String, distance: Int) {
        #expect(Suggestion.editDistance(a, b) == distance)
        #expect(Suggestion.editDistance(b, a) == distance)
    }
}
