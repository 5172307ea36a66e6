import Foundation
import Testing
@testable import PriceWatchConfig

/// The locator behind diagnostic positions and exact number literals.
@Suite struct TOMLSourceMapTests {
    typealias Position = TOMLSourceMap.Position

    static let text = #"""
        # a comment with key = "value" and [table]
        title = "a # not a comment = still the string" # a comment
        price = 3.135   # trailing
        big = 1_000.5
        'literal key' = 'it''s'
        "quoted.key" = "\"escaped\" = #"
        dotted.inner = 1

        [providers.demo]
        type = "replay"
        api_key = { env = "KEY", file = "x # y" }
        list = [
          "a = b",   # comment ] inside
          [1, 2],
          { x = 1 },
        ]
        text = """
        not = a key
        [not.a.table]
        """
        after = true

        [[rule]]
        id = "first"

        [[rule]]
        id = "second"
        [rule.extra]
        key = 1

        [[rule]]
          id   =   "third"
        """#

    static let map = TOMLSourceMap(text: text)

    static func path(_ components: TOMLKeyPath.Component...) -> TOMLKeyPath { TOMLKeyPath(components) }

    @Test func keysAndRawValues() throws {
        let title = try #require(Self.map.entry(at: TOMLKeyPath(keys: "title")))
        #expect(title.key == Position(line: 2, column: 1))
        #expect(title.value == Position(line: 2, column: 9))
        #expect(title.rawValue == "\"a # not a comment = still the string\"")
        #expect(Self.map.entry(at: TOMLKeyPath(keys: "price"))?.rawValue == "3.135")
        #expect(Self.map.entry(at: TOMLKeyPath(keys: "big"))?.rawValue == "1_000.5")
        #expect(Self.map.entry(at: TOMLKeyPath(keys: "literal key"))?.key == Position(line: 5, column: 1))
        #expect(Self.map.entry(at: TOMLKeyPath(keys: "quoted.key"))?.rawValue == #""\"escaped\" = #""#)
        #expect(Self.map.entry(at: TOMLKeyPath(keys: "dotted", "inner"))?.key == Position(line: 7, column: 1))
    }

    @Test func tablesInlineTablesAndArrays() {
        #expect(Self.map.position(of: TOMLKeyPath(keys: "providers", "demo")) == Position(line: 9, column: 1))
        #expect(Self.map.entry(at: TOMLKeyPath(keys: "providers", "demo", "type"))?.key == Position(line: 10, column: 1))
        #expect(Self.map.entry(at: TOMLKeyPath(keys: "providers", "demo", "api_key", "env"))?.key == Position(line: 11, column: 13))
        #expect(Self.map.entry(at: TOMLKeyPath(keys: "providers", "demo", "api_key", "file"))?.rawValue == "\"x # y\"")
        let list = TOMLKeyPath(keys: "providers", "demo", "list")
        #expect(Self.map.entry(at: list.appending(index: 0))?.key == Position(line: 13, column: 3))
        #expect(Self.map.entry(at: list.appending(index: 1).appending(index: 1))?.rawValue == "2")
        #expect(Self.map.entry(at: list.appending(index: 2).appending("x"))?.key == Position(line: 15, column: 5))
        #expect(Self.map.entry(at: list.appending(index: 3)) == nil)
    }

    @Test func multiLineStringsAreSkipped() {
        #expect(Self.map.entry(at: TOMLKeyPath(keys: "providers", "demo", "text"))?.key == Position(line: 17, column: 1))
        #expect(Self.map.entry(at: TOMLKeyPath(keys: "providers", "demo", "after"))?.key == Position(line: 21, column: 1))
        #expect(Self.map.entry(at: TOMLKeyPath(keys: "not")) == nil)
        #expect(Self.map.entry(at: TOMLKeyPath(keys: "providers", "demo", "not")) == nil)
        #expect(Self.map.position(of: TOMLKeyPath(keys: "not", "a", "table")) == nil)
    }

    @Test func arraysOfTablesAreIndexed() {
        let rule = TOMLKeyPath(keys: "rule")
        #expect(Self.map.position(of: rule.appending(index: 0)) == Position(line: 23, column: 1))
        #expect(Self.map.entry(at: rule.appending(index: 1).appending("id"))?.rawValue == "\"second\"")
        #expect(Self.map.entry(at: rule.appending(index: 1).appending(["extra", "key"]))?.key == Position(line: 29, column: 1))
        #expect(Self.map.entry(at: rule.appending(index: 2).appending("id"))?.key == Position(line: 32, column: 3))
        #expect(Self.map.entry(at: rule.appending(index: 2).appending("id"))?.rawValue == "\"third\"")
    }

    @Test func positionsFallBackToTheNearestKnownParent() {
        let missing = TOMLKeyPath(keys: "rule").appending(index: 1).appending("nothing")
        #expect(Self.map.position(of: missing) == Position(line: 26, column: 1))
        #expect(Self.map.position(of: TOMLKeyPath(keys: "absent")) == nil)
        #expect(Self.map.position(of: .root) == nil)
    }

    @Test func plainStrings() {
        let map = TOMLSourceMap(text: "a = \"rules.d\"\nb = 'x'\nc = \"with \\\" escape\"\nd = 5\n")
        #expect(map.plainString(at: TOMLKeyPath(keys: "a")) == "rules.d")
        #expect(map.plainString(at: TOMLKeyPath(keys: "b")) == "x")
        #expect(map.plainString(at: TOMLKeyPath(keys: "c")) == nil)
        #expect(map.plainString(at: TOMLKeyPath(keys: "d")) == nil)
    }

    @Test func crlfLineEnds() {
        let map = TOMLSourceMap(text: "a = 1\r\n[t]\r\nb = 2.5\r\n")
        #expect(map.entry(at: TOMLKeyPath(keys: "t", "b"))?.key == Position(line: 3, column: 1))
        #expect(map.entry(at: TOMLKeyPath(keys: "t", "b"))?.rawValue == "2.5")
    }

    /// The locator must never trap, whatever the text: every prefix of a real configuration,
    /// and bytes of every kind.
    @Test func neverTrapsOnAnyText() throws {
        let text = Self.text
        var prefix = ""
        for character in text {
            prefix.append(character)
            _ = TOMLSourceMap(text: prefix)
        }
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("[]{}\"'=#.,\n\r\t \\abc123_-:+eZT\u{0}é🙂")
        for _ in 0..<300 {
            let length = Int.random(in: 0..<80, using: &generator)
            let random = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
            let map = TOMLSourceMap(text: random)
            _ = map.position(of: TOMLKeyPath(keys: "a"))
        }
    }
}
