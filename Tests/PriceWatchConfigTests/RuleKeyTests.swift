@testable import PriceWatchConfig
import Testing

/// The rule keys: each named as its case, found by its name and by nothing else, and a set of
/// them answers as a set.
@Suite struct RuleKeyTests {
    @Test func everyKeyIsNamedAsItsCaseAndFoundByItsName() {
        for key in RuleKey.allCases {
            #expect(key.name == "\(key)")
            #expect(RuleKey.named(key.name) == key)
        }
        #expect(Set(RuleKey.allCases.map(\.name)).count == RuleKey.allCases.count)
        #expect(RuleReader.keys == RuleKey.allCases.map(\.name))
    }

    @Test(arguments: ["", "ID", "abvoe", "symbolss", "portfolios", "a-very-long-unknown-key", "fal", "moves", "idd"])
    func otherNamesAreNoKey(name: String) {
        #expect(RuleKey.named(name) == nil)
    }

    @Test func aSetOfKeys() {
        var keys = RuleKeys()
        #expect(keys.count == 0 && keys.keys.isEmpty)
        keys.insert(.fall)
        #expect(keys.contains(.fall) && !keys.contains(.rise) && keys.count == 1 && keys.keys == [.fall])
        keys.insert(.id)
        keys.insert(.position)
        #expect(keys.keys == [.id, .fall, .position])
        #expect(keys.intersection(.conditions).keys == [.fall])
        #expect(RuleKeys.conditions.keys == [.above, .below, .rise, .fall, .move, .crosses])
    }
}
