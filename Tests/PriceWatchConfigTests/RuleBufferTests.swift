@testable import PriceWatchConfig
import PriceWatchCore
import Testing

/// The rules of each file are moved into the rule set's one array: in order, each once, and
/// the files' buffers left empty.
@Suite struct RuleBufferTests {
    private func rule(_ id: String) -> Rule {
        // A heap-allocated id and symbol list, so that a double release or a leak of a moved
        // rule would show under the address sanitizer and in the values read back.
        Rule(id: id + String(repeating: "-x", count: 20), symbols: ["SYM-" + id], condition: .above(.hundred))
    }

    @Test func joinMovesEveryRuleInFileOrderAndEmptiesTheBuffers() {
        let first = RuleBuffer(capacity: 3), empty = RuleBuffer(capacity: 0), second = RuleBuffer(capacity: 2)
        for id in ["a", "b", "c"] { first.append(rule(id)) }
        second.append(rule("d"))
        let joined = RuleBuffer.join([.read(first), .read(empty), .read(second)])
        #expect(joined == ["a", "b", "c", "d"].map(rule))
        #expect(first.count == 0 && empty.count == 0 && second.count == 0)
        // A buffer not joined (a file whose rules were dropped) still frees what it holds.
        let unjoined = RuleBuffer(capacity: 1)
        unjoined.append(rule("e"))
        #expect(unjoined.count == 1)
    }

    @Test func joiningNothingGivesNoRules() {
        #expect(RuleBuffer.join([]).isEmpty)
        #expect(RuleBuffer.join([.read(RuleBuffer(capacity: 4)), .kept([])]).isEmpty)
    }

    /// Rules kept from an earlier load are copied (the cache still holds them), read ones moved.
    @Test func keptRulesAreCopiedBetweenReadOnes() {
        let kept = ["k1", "k2", "k3"].map(rule)
        let read = RuleBuffer(capacity: 1)
        read.append(rule("r"))
        let joined = RuleBuffer.join([.kept(kept[1...]), .read(read), .kept(kept[..<1])])
        #expect(joined == ["k2", "k3", "r", "k1"].map(rule))
        #expect(kept == ["k1", "k2", "k3"].map(rule))
        #expect(read.count == 0)
    }
}
