import Testing
import PriceWatchTOML

/// Hostile documents are rejected quickly, each with a positioned error, never by running
/// for long or overflowing the stack (issue 10 item 3). Times are printed by
/// `pricewatch-bench config-load`, never asserted here.
@Suite struct TOMLLimitsTests {
    @Test func aTenThousandPartDottedHeaderIsRejectedAtItsThirtyThirdPart() {
        let header = "[" + Array(repeating: "a", count: 10_000).joined(separator: ".") + "]\nx = 1\n"
        let result = TOMLParser.parse(header)
        #expect(result.error?.kind == .limit)
        #expect(result.error?.message == "a dotted key has more than 32 parts")
        #expect(result.error?.position == TOMLPosition(line: 1, column: 2 + 32 * 2))
    }

    @Test func aTenThousandPartDottedKeyIsRejected() {
        let key = Array(repeating: "a", count: 10_000).joined(separator: ".") + " = 1\n"
        #expect(TOMLParser.parse(key).error?.kind == .limit)
    }

    /// The nested variant: headers that each go one level deeper than the last (500 of them,
    /// to stay under the 1 MiB document limit, which would otherwise answer first).
    @Test func headersNestingDeeperAndDeeperAreRejected() {
        var text = ""
        var path = "a"
        for _ in 0..<500 {
            text += "[\(path)]\nx = 1\n"
            path += ".a"
        }
        let result = TOMLParser.parse(text)
        #expect(result.error?.kind == .limit)
        #expect(result.error?.position.line == 2 * 32 + 1)
    }

    @Test func deeplyNestedInlineTablesAndArraysAreRejected() {
        let tables = "x = " + String(repeating: "{a = ", count: 10_000) + "1" + String(repeating: "}", count: 10_000) + "\n"
        let tablesResult = TOMLParser.parse(tables)
        #expect(tablesResult.error?.kind == .limit)
        #expect(tablesResult.error?.message == "arrays and inline tables are nested more than 32 deep")
        let arrays = "x = " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n"
        #expect(TOMLParser.parse(arrays).error?.kind == .limit)
        // 32 levels are fine.
        let fine = "x = " + String(repeating: "[", count: 32) + String(repeating: "]", count: 32) + "\n"
        #expect(TOMLParser.parse(fine).error == nil)
    }

    @Test func longKeysAndLargeDocumentsAreRejected() {
        let key = String(repeating: "k", count: 257) + " = 1\n"
        #expect(TOMLParser.parse(key).error?.message == "a key is 257 bytes long; the limit is 256 bytes")
        let large = "x = \"" + String(repeating: "y", count: 1 << 20) + "\"\n"
        let result = TOMLParser.parse(large)
        #expect(result.error?.kind == .limit)
        #expect(result.error?.position == TOMLPosition(line: 1, column: 1))
    }

    @Test func manyKeysOnOneLongLineAreFine() {
        // Columns on one long line are counted once, not from the line start for each key.
        let inline = "x = {" + (0..<20_000).map { "k\($0) = \($0)" }.joined(separator: ", ") + "}\n"
        let result = TOMLParser.parse(inline)
        #expect(result.error == nil)
        #expect(result.partialRoot["x"]?.table?.count == 20_000)
        #expect(result.partialRoot["x"]?.table?.entry("k19999")?.keyPosition.line == 1)
    }
}
