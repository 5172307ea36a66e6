import Testing
import PriceWatchTOML

/// Every key and value carries where it is written: what diagnostics point at.
@Suite struct TOMLPositionTests {
    static let text = #"""
        # a comment with key = "value" and [table]
        title = "a # not a comment = still the string" # a comment
        price = 3.135   # trailing
        big = 1_000.5
        'literal key' = 'its'
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

    static func position(_ line: Int, _ column: Int) -> TOMLPosition { TOMLPosition(line: line, column: column) }

    static func table(_ value: TOMLValue?) -> TOMLTable? { value?.table }

    @Test func keysAndLiterals() throws {
        let root = try TOMLParser.document(Self.text)
        #expect(root.entry("title")?.keyPosition == Self.position(2, 1))
        guard case .float(let price)? = root["price"], case .float(let big)? = root["big"] else {
            Issue.record("price and big are floats")
            return
        }
        #expect(price.literal == "3.135")
        #expect(big.literal == "1_000.5")
        #expect(big.value == 1000.5)
        #expect(root.entry("literal key")?.keyPosition == Self.position(5, 1))
        guard case .string(let quoted)? = root["quoted.key"] else { Issue.record("quoted.key is a string"); return }
        #expect(quoted == "\"escaped\" = #")
        #expect(Self.table(root["dotted"])?.entry("inner")?.keyPosition == Self.position(7, 1))
        #expect(root.keys == ["title", "price", "big", "literal key", "quoted.key", "dotted", "providers", "rule"])
    }

    @Test func tablesInlineTablesAndArrays() throws {
        let root = try TOMLParser.document(Self.text)
        let demo = try #require(Self.table(Self.table(root["providers"])?["demo"]))
        #expect(demo.headerPosition == Self.position(9, 1))
        #expect(demo.entry("type")?.keyPosition == Self.position(10, 1))
        let apiKey = try #require(Self.table(demo["api_key"]))
        #expect(apiKey.entry("env")?.keyPosition == Self.position(11, 13))
        #expect(apiKey.keys == ["env", "file"])
        guard case .array(let list)? = demo["list"] else { Issue.record("list is an array"); return }
        #expect(list.positions == [Self.position(13, 3), Self.position(14, 3), Self.position(15, 3)])
        guard case .table(let inline) = list.elements[2] else { Issue.record("list[2] is a table"); return }
        #expect(inline.entry("x")?.keyPosition == Self.position(15, 5))
    }

    @Test func multiLineStringsAreValuesNotKeys() throws {
        let root = try TOMLParser.document(Self.text)
        let demo = try #require(Self.table(Self.table(root["providers"])?["demo"]))
        guard case .string(let text)? = demo["text"] else { Issue.record("text is a string"); return }
        #expect(text == "not = a key\n[not.a.table]\n")
        #expect(demo.entry("after")?.keyPosition == Self.position(21, 1))
        #expect(root["not"] == nil)
    }

    @Test func arraysOfTablesKeepTheirHeaders() throws {
        let root = try TOMLParser.document(Self.text)
        guard case .array(let rules)? = root["rule"] else { Issue.record("rule is an array of tables"); return }
        #expect(rules.isArrayOfTables)
        #expect(rules.positions == [Self.position(23, 1), Self.position(26, 1), Self.position(31, 1)])
        guard case .table(let second) = rules.elements[1], case .table(let third) = rules.elements[2] else {
            Issue.record("rules are tables"); return
        }
        #expect(Self.table(second["extra"])?.entry("key")?.keyPosition == Self.position(29, 1))
        #expect(Self.table(second["extra"])?.headerPosition == Self.position(28, 1))
        #expect(third.entry("id")?.keyPosition == Self.position(32, 3))
    }

    @Test func crlfLineEndsAndMultibyteColumns() throws {
        let root = try TOMLParser.document("a = 1\r\n[t]\r\nb = 2.5\r\n\"é🙂\" = 1\r\nc = [\"é\", \"x\"]\r\n")
        let table = try #require(Self.table(root["t"]))
        #expect(table.entry("b")?.keyPosition == Self.position(3, 1))
        guard case .array(let array)? = table["c"] else { Issue.record("c is an array"); return }
        // Columns count Unicode scalars: "é" is one column.
        #expect(array.positions == [Self.position(5, 6), Self.position(5, 11)])
    }

    @Test func aByteOrderMarkIsNotAColumn() throws {
        let root = try TOMLParser.document("\u{FEFF}a = 1\n")
        #expect(root.entry("a")?.keyPosition == Self.position(1, 1))
    }

    @Test func syntaxErrorsArePositionedAndKeepWhatCameBefore() {
        let result = TOMLParser.parse("rules = \"rules\"\n[providers.demo\ntype = \"replay\"\n")
        #expect(result.root == nil)
        #expect(result.error?.position == Self.position(2, 16))
        #expect(result.error?.message == "expected ']' to close the table header, found the end of the line")
        guard case .string(let rules)? = result.partialRoot["rules"] else { Issue.record("rules was parsed"); return }
        #expect(rules == "rules")
    }

    @Test func anUnterminatedStringSaysSo() {
        let result = TOMLParser.parse("[[rule]]\nid = \"broken\"\nsymbol = \"AAPL\nabove = 1\n")
        #expect(result.error?.position == Self.position(3, 10))
        #expect(result.error?.message.hasPrefix("unterminated string") == true)
    }

    /// Decimal integers are read from their digits: the 64-bit edges, signs and underscores.
    @Test(arguments: [
        ("9223372036854775807", 9_223_372_036_854_775_807), ("-9223372036854775808", Int.min),
        ("+1_000", 1000), ("-0", 0), ("0", 0), ("-12", -12),
    ])
    func integersAtTheEdges(text: String, value: Int) throws {
        let root = try TOMLParser.document("x = \(text)\n")
        guard case .integer(let parsed)? = root["x"] else { Issue.record("x is not an integer"); return }
        #expect(parsed == value)
    }

    @Test(arguments: ["9223372036854775808", "-9223372036854775809", "99999999999999999999"])
    func integersBeyond64BitsAreErrors(text: String) {
        #expect(TOMLParser.parse("x = \(text)\n").error?.message == "the integer '\(text)' does not fit in 64 bits")
    }

    @Test func tablesAndKeysDefinedTwiceNameTheFirstLine() {
        #expect(TOMLParser.parse("[a]\nx = 1\n[a]\n").error?.message == "the table [a] is defined twice (first at line 1)")
        #expect(TOMLParser.parse("x = 1\nx = 2\n").error?.message == "duplicate key x (first written at line 1)")
        #expect(TOMLParser.parse("x = 1\nx = 2\n").error?.position == Self.position(2, 1))
    }
}
