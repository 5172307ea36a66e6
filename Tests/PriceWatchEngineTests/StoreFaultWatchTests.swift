import PriceWatchCore
import PriceWatchApp
import PriceWatchServices
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// Damage found while the daemon runs stops it: the watch around the store keeps the first error
/// that makes the state unusable, and the fault service throws it (ending the service group, so
/// the daemon exits 65); an outage (a full disk) does not.
@Suite struct StoreFaultWatchTests {
    typealias F = EngineFixtures
    static let damage = StoreError.corrupted(path: ":memory:", operation: "commit", reason: "database disk image is malformed")

    @Test func damageDuringAPollEndsTheFaultService() async throws {
        let store = try FlakyStore()
        let watch = StoreFaultWatch(store)
        let service = Task { try await StoreFaultService(watch: watch).run() }
        let evaluator = try await RuleEvaluator(configuration: F.configuration(rules: [F.rule("aapl-200", .above(F.decimal("200")))]),
                                                store: watch, doorbell: Doorbell(), logger: F.logger, now: Timestamp(seconds: 0))
        store.failCommits(with: FlakyStore.diskFull)
        await #expect(throws: PollKeptForLater.self) {
            try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", "150", at: 60)), now: Timestamp(seconds: 61))
        }
        #expect(watch.fault == nil, "a full disk is an outage, not damage")
        store.failCommits(with: Self.damage)
        await #expect(throws: StoreError.self) {
            try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", "201", at: 120)), now: Timestamp(seconds: 121))
        }
        #expect(watch.fault == Self.damage)
        let result = await service.result
        guard case .failure(let error as StoreError) = result else {
            Issue.record("the fault service must end with the damage, got \(result)")
            return
        }
        #expect(error == Self.damage && error.makesTheStateUnusable)
    }

    @Test func finishingWithoutAFaultEndsTheServiceQuietly() async throws {
        let watch = StoreFaultWatch(try FlakyStore())
        let waiter = Task { await watch.firstFault() }
        watch.finish()
        #expect(await waiter.value == nil)
    }
}
