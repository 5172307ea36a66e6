import Testing
import PriceWatchTOML

/// After a syntax error the parser resynchronises at the next table header and reports the
/// errors after it too (issue 30, item 9), without changing what it answers about the first
/// error or a valid document.
@Suite struct TOMLResynchronisationTests {
    static let threeBadRules = """
        [[rule]]
        id = "a"
        date = 2026-13-01

        [[rule]]
        id = "b"
        date = 2026-02-30

        [[rule]]
        id = "c"
        ok = true

        [[rule]]
        id = "d"
        date = 2026-01-01T25:00:00Z
        """

    @Test func everyBadTableIsReportedWithItsLine() {
        let result = TOMLParser.parse(Self.threeBadRules)
        #expect(result.errors.map(\.position.line) == [3, 7, 15], "\(result.errors)")
        #expect(result.error == result.errors.first)
        #expect(result.laterErrors.count == 2)
    }

    @Test func whatWasParsedBeforeTheFirstErrorStaysAsItWas() throws {
        let result = TOMLParser.parse(Self.threeBadRules)
        guard case .array(let rules)? = result.partialRoot["rule"] else {
            Issue.record("expected the rules parsed before the error")
            return
        }
        // Only the first [[rule]] was opened before line 3; the tables after are not added.
        #expect(rules.count == 1)
    }

    @Test func theLinesOfATableWithAnErrorAreSkippedUpToTheNextHeader() {
        let result = TOMLParser.parse("""
            a = = 1
            b = = 2
            [t]
            c = = 3
            d = = 4
            [[u]]
            e = 5
            """)
        #expect(result.errors.map(\.position.line) == [1, 4])
    }

    @Test func aBadHeaderIsSkippedItself() {
        let result = TOMLParser.parse("[a b]\nx = 1\n[c\ny = 2\n[d]\nz = = 3\n")
        #expect(result.errors.map(\.position.line) == [1, 3, 6], "\(result.errors)")
    }

    @Test func encodingAndLimitErrorsStop() {
        let encoding = TOMLParser.parse(bytes: Array("a = 1\n".utf8) + [0xFF] + Array("\n[b]\nc = = 1\n".utf8))
        #expect(encoding.error?.kind == .encoding)
        #expect(encoding.laterErrors.isEmpty)
        let deep = TOMLParser.parse("a = [[[1]]]\n[b]\nc = = 1\n", limits: TOMLLimits(maximumNestingDepth: 2))
        #expect(deep.error?.kind == .limit)
        #expect(deep.laterErrors.isEmpty)
    }

    @Test func theNumberOfErrorsIsBounded() {
        let text = String(repeating: "[t]\nx = = 1\n", count: 200)
        #expect(TOMLParser.parse(text).errors.count == TOMLLimits.default.maximumErrors)
        #expect(TOMLParser.parse(text, limits: TOMLLimits(maximumErrors: 3)).errors.count == 3)
    }

    @Test func aValidDocumentHasNoErrors() {
        let result = TOMLParser.parse("[a]\nx = 1\n[[b]]\ny = 2\n")
        #expect(result.errors.isEmpty)
        #expect(result.root != nil)
    }
}
