import PriceWatchCore
import PriceWatchServices
import PriceWatchTestKit
import ServiceLifecycle
import Synchronization
import Testing

/// The one reload path: every subscriber takes its part of a validated configuration in three
/// phases; a refusal returns everyone to the running one; a reload in progress never delays
/// shutdown.
@Suite struct ReloadCoordinatorTests {
    typealias F = EngineFixtures

    /// Records the phases it goes through; refuses setups with `refused` rules count.
    final class RecordingSubscriber: ConfigurationSubscriber {
        let name: String
        let refuseRuleCount: Int?
        private let shared: Journal

        final class Journal: Sendable {
            let entries = Mutex<[String]>([])
            func append(_ entry: String) { entries.withLock { $0.append(entry) } }
            var all: [String] { entries.withLock { $0 } }
        }

        init(_ name: String, journal: Journal, refuseRuleCount: Int? = nil) {
            self.name = name
            self.refuseRuleCount = refuseRuleCount
            self.shared = journal
        }

        func pause() async { shared.append("\(name) pause") }

        func apply(_ setup: ServiceSetup, now: Timestamp) async throws {
            shared.append("\(name) apply \(setup.configuration.rules.count)")
            if setup.configuration.rules.count == refuseRuleCount { throw CancellationError() }
        }

        func resume(with setup: ServiceSetup) async { shared.append("\(name) resume \(setup.configuration.rules.count)") }
    }

    /// A flag set from any task.
    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .sequentiallyConsistent) }
        var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
    }

    /// A gate that ignores cancellation: a load stuck in a slow parse.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { continuation in
                let openAlready = state.withLock { state -> Bool in
                    if !state.open { state.waiters.append(continuation) }
                    return state.open
                }
                if openAlready { continuation.resume() }
            }
        }

        func open() {
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.open = true
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    static func setup(rules: Int) -> ServiceSetup {
        let rules = (0..<rules).map { F.rule("r\($0)", .above(F.decimal("1"))) }
        return ServiceSetup(configuration: F.configuration(rules: rules), providers: [:], sinks: [:])
    }

    /// Whether `condition` comes to hold by the test kit's wait deadline (``waitUntil(_:timeout:_:)``).
    static func eventually(_ condition: @Sendable () -> Bool) async -> Bool {
        (try? await waitUntil("the condition") { condition() }) != nil
    }

    @Test func everySubscriberTakesTheNewSetupInThreePhasesAndARefusalRestoresTheRunningOne() async throws {
        let journal = RecordingSubscriber.Journal()
        let subscribers = [RecordingSubscriber("polls", journal: journal), RecordingSubscriber("rules", journal: journal, refuseRuleCount: 3),
                           RecordingSubscriber("sinks", journal: journal)]
        let (requests, requestFeed) = AsyncStream<Void>.makeStream()
        let loads = Mutex([Self.setup(rules: 2), Self.setup(rules: 3)])
        let configuration = RunningConfiguration(Self.setup(rules: 1).configuration)
        let coordinator = ReloadCoordinator(
            initial: Self.setup(rules: 1), subscribers: subscribers, reloadRequests: requests, observer: SilentDaemonObserver(),
            logger: F.logger, wallClock: ManualWallClock().function, running: configuration,
            load: { _ in (loads.withLock { $0.removeFirst() }, []) })
        let running = Task { try await coordinator.run() }
        defer { running.cancel() }

        requestFeed.yield()
        #expect(await Self.eventually { journal.all.count == 9 }, "the first reload reaches every subscriber: \(journal.all)")
        #expect(journal.all == ["polls pause", "rules pause", "sinks pause",
                                "polls apply 2", "rules apply 2", "sinks apply 2",
                                "polls resume 2", "rules resume 2", "sinks resume 2"])
        #expect(configuration.current.rules.count == 2, "the running configuration is the applied one")

        requestFeed.yield()
        #expect(await Self.eventually { journal.all.count == 9 + 9 }, "the refused reload: \(journal.all)")
        #expect(Array(journal.all.dropFirst(9)) == ["polls pause", "rules pause", "sinks pause",
                                                    "polls apply 3", "rules apply 3", "polls apply 2",
                                                    "polls resume 2", "rules resume 2", "sinks resume 2"],
                "the refusal stops the switch, returns the earlier subscriber to the running setup, and resumes it")
        #expect(configuration.current.rules.count == 2, "a refused configuration never becomes the running one")
    }

    @Test func aSlowReloadNeverDelaysShutdown() async throws {
        let gate = Gate()
        defer { gate.open() }
        let started = Flag()
        let cancelled = Flag()
        let (requests, requestFeed) = AsyncStream<Void>.makeStream()
        let coordinator = ReloadCoordinator(
            initial: Self.setup(rules: 1), subscribers: [], reloadRequests: requests, observer: SilentDaemonObserver(),
            logger: F.logger, wallClock: ManualWallClock().function,
            load: { _ in
                // A parse that takes as long as it takes: it notices cancellation but cannot stop.
                started.set()
                await withTaskCancellationHandler {
                    await gate.wait()
                } onCancel: {
                    cancelled.set()
                }
                return (nil, [])
            })
        let group = ServiceGroup(configuration: .init(services: [.init(service: coordinator)], logger: F.logger))
        let running = Task { try await group.run() }
        defer { running.cancel() }

        requestFeed.yield()
        #expect(await Self.eventually { started.isSet }, "the reload's load began")
        // The wait deadline: past it, the load is let go, so the test ends either way.
        let timedOut = Flag()
        let deadline = expiringWait {
            timedOut.set()
            gate.open()
        }
        defer { deadline.cancel() }
        await group.triggerGracefulShutdown()
        _ = try? await running.value
        #expect(!timedOut.isSet, "shutdown waited for the reload in progress")
        #expect(cancelled.isSet, "the abandoned load was cancelled")
    }
}
