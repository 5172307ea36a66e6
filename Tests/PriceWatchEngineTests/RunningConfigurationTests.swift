import PriceWatchCore
import PriceWatchServices
import PriceWatchTestKit
import Testing

/// The one owner of the running configuration: what readers get, the urgent rules derived
/// from it, its change stream, and the reload coordinator setting it only when every
/// subscriber applied the new setup.
@Suite struct RunningConfigurationTests {
    typealias F = EngineFixtures

    static func configuration(urgent: [String], plain: [String] = []) -> Configuration {
        var rules = (urgent + plain).map { F.rule($0, .above(F.decimal("1"))) }
        for index in rules.indices where urgent.contains(rules[index].id) { rules[index].urgent = true }
        return F.configuration(rules: rules)
    }

    @Test func readersGetTheLatestAndWatchersEveryChange() async throws {
        let running = RunningConfiguration(Self.configuration(urgent: ["a"], plain: ["b"]))
        #expect(running.urgentRules == ["a"])
        #expect(running.current.rules.map(\.id) == ["a", "b"])
        var changes = running.changes().makeAsyncIterator()
        running.set(Self.configuration(urgent: ["b", "c"]))
        #expect(running.urgentRules == ["b", "c"])
        let next = await changes.next()
        #expect(next?.rules.map(\.id) == ["b", "c"])
    }
}
