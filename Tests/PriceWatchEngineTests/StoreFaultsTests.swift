import Foundation
@testable import PriceWatchApp
import PriceWatchCore
import PriceWatchServices
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// Damage found while the daemon runs stops it, whichever part of the daemon finds it: the store
/// reports every error that makes the state unusable to the hook it was opened with
/// (``StoreFaults``), from its own read and write path, and the fault service throws the first
/// (ending the service group, so the daemon exits 65). An outage (a full disk) is no fault.
///
/// Each case damages the one page of a table in a real state file, then lets one consumer of
/// the daemon read it through the store as the daemon wires it (issue 29, item 3: the paper
/// fills, the silence gate and the digest sections were given the raw store, around the watch).
@Suite(.serialized) struct StoreFaultsTests {
    typealias F = EngineFixtures

    @Test func anOutageIsNoFaultAndFinishingEndsTheServiceQuietly() async throws {
        let faults = StoreFaults()
        faults.report(.unavailable(path: "/x", operation: "commit", reason: "database or disk is full"))
        #expect(faults.fault == nil)
        let waiter = Task { await faults.firstFault() }
        faults.finish()
        #expect(await waiter.value == nil)
    }

    /// A state file with a paper account, an order that never fills and a silence (written by
    /// the commands), everything in the main file (checkpointed).
    static func preparedState() async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", "state = \"state/pricewatch.db\"\n")
        for arguments in [["paper", "open", "alice", "--cash", "10000", "--currency", "USD"],
                          ["paper", "buy", "alice", "AAPL", "5", "--limit", "1", "--order-id", "never"],
                          ["silence", "add", "--rule", "other", "--for", "1h", "--force"]] {
            let result = try await CommandRunner.run(arguments + ["--config", "pricewatch.toml"], in: directory.path)
            try #require(result.status == 0, "\(arguments): \(result.standardError)")
        }
        let store = try SQLiteAlertStore.open(path: directory.file("state/pricewatch.db"))
        try await store.recordQuotes([F.quote("AAPL", "190", at: 1_727_875_800)])
        try store.close()
        try await StateFileSurgery.checkpoint(directory.file("state/pricewatch.db"))
        return directory
    }

    /// Overwrites the root page of `table` with garbage.
    static func damage(_ table: String, in path: String) async throws {
        try await StateFileSurgery.damage(table: table, of: path)
    }

    static let poll = PolledQuotes(provider: "feed", results: F.ok(F.quote("AAPL", "191", at: 1_727_875_860)),
                                   time: Timestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000) + 60_000))

    @Test(arguments: ["paper fills", "silence gate", "paper digest", "history", "evaluator"])
    func damageFoundByAnyConsumerEndsTheFaultService(consumer: String) async throws {
        let directory = try await Self.preparedState()
        let path = directory.file("state/pricewatch.db")
        let table = ["paper fills": "paper_order", "silence gate": "silence_generation", "paper digest": "paper_account",
                     "history": "candle", "evaluator": "quote"][consumer] ?? ""
        // Damaged once the store is open (its start-up check would find it first), as it would be
        // under a running daemon; none of the table's pages has been read yet.
        let faults = StoreFaults()
        let store = try SQLiteAlertStore.open(path: path, onUnusable: faults.report)
        defer { try? store.close() }
        try await Self.damage(table, in: path)
        let service = Task { try await StoreFaultService(faults: faults).run() }
        switch consumer {
        case "paper fills":
            _ = await PaperFillConsumer(store: store, markets: AlwaysOpenMarkets(), doorbell: nil, logger: F.logger).receive(Self.poll)
        case "silence gate":
            _ = await SilenceGate(store: store, logger: F.logger).silences(now: Self.poll.time)
        case "paper digest":
            let settings = DigestSettings(name: "daily", schedule: try CalendarSchedule(parsing: "daily 18:00 UTC"), period: .day,
                                          notify: [], charts: false)
            _ = try? await PaperDigestSection(store: store).content(for: Timestamp(seconds: 0)..<Self.poll.time, settings: settings)
        case "history":
            _ = await HistoryRecorder(store: store, logger: F.logger).receive(Self.poll)
        default:
            // Loading the rule state may already read the damaged page; either way it is reported.
            let evaluator = try? await RuleEvaluator(configuration: F.configuration(rules: [F.rule("aapl-200", .above(F.decimal("200")))]),
                                                     store: store, doorbell: Doorbell(), logger: F.logger, now: Self.poll.time)
            _ = try? await evaluator?.ingest(provider: "feed", results: Self.poll.results, now: Self.poll.time)
        }
        let fault = try #require(faults.fault, "\(consumer) read the damaged \(table) and the fault was not reported")
        #expect(fault.makesTheStateUnusable)
        guard case .failure(let error as StoreError) = await service.result else {
            Issue.record("the fault service must end with the damage")
            return
        }
        #expect(error == fault)
    }
}
