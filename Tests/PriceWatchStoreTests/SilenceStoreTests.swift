import PriceWatchCore
import PriceWatchStore
import Testing

/// The silences role: add, list, expire, the generation the daemon watches, and the
/// `silenced` delivery status.
@Suite struct SilenceStoreTests {
    static func silence(_ id: String, _ target: Silence.Target, from: Int64, to: Int64) -> Silence {
        Silence(id: id, target: target, startsAt: Fixtures.time(from), endsAt: Fixtures.time(to), comment: "maintenance",
                createdAt: Fixtures.time(from))
    }

    @Test func addListExpireAndTheGenerationMovesWithEachChange() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let start = try await store.silenceGeneration()
        try await store.addSilence(Self.silence("s-1", .rule("r"), from: 10, to: 100))
        try await store.addSilence(Self.silence("s-2", .symbol("AAPL"), from: 20, to: 50))
        let afterAdds = try await store.silenceGeneration()
        #expect(afterAdds != start)
        #expect(try await store.silences(endingAfter: Fixtures.time(60)).map(\.id) == ["s-1"])
        #expect(try await store.silences(endingAfter: nil) == [Self.silence("s-1", .rule("r"), from: 10, to: 100),
                                                               Self.silence("s-2", .symbol("AAPL"), from: 20, to: 50)])
        let expired = try await store.expireSilence(id: "s-1", now: Fixtures.time(70))
        #expect(expired?.endsAt == Fixtures.time(70))
        #expect(try await store.silenceGeneration() != afterAdds)
        #expect(try await store.silences(endingAfter: Fixtures.time(70)).isEmpty)
        #expect(try await store.expireSilence(id: "s-404", now: Fixtures.time(70)) == nil)
        // Expiring an ended silence keeps its end.
        #expect(try await store.expireSilence(id: "s-2", now: Fixtures.time(80))?.endsAt == Fixtures.time(50))
    }

    @Test func aDuplicateIdIsRefused() async throws {
        let store = try SQLiteAlertStore.inMemory()
        try await store.addSilence(Self.silence("s-1", .rule("r"), from: 10, to: 100))
        await #expect(throws: (any Error).self) { try await store.addSilence(Self.silence("s-1", .symbol("X"), from: 10, to: 20)) }
    }

    @Test func aSilencedDeliveryLeavesTheOutboxAndIsListedAsSilenced() async throws {
        let store = try SQLiteAlertStore.inMemory()
        try await store.commit(Fixtures.commit(try Fixtures.alert(id: "a1", at: 10), sinks: ["out"], now: 10))
        try await store.recordAttempts([DeliveryOutcome(notificationID: "a1", sink: "out", at: Fixtures.time(11),
                                                        result: .silenced(by: "s-1"))])
        #expect(try await store.pendingDeliveryCount() == 0)
        let records = try await store.alerts(matching: AlertQuery(status: .silenced))
        #expect(records.map(\.alert.id) == ["a1"])
        let delivery = try #require(records.first?.deliveries.first)
        #expect(delivery.status == .silenced)
        #expect(delivery.attempts == 0)
        #expect(delivery.lastError == "silenced by s-1")
        #expect(try await store.alerts(matching: AlertQuery(status: .pending)).isEmpty)
    }
}
