import Foundation
import Logging
import PriceWatchConfig
import PriceWatchCore
import PriceWatchApp
import PriceWatchServices
import PriceWatchProviders
import PriceWatchStore
import ServiceLifecycle
import Synchronization

/// `pricewatch-bench daemon-over-time DIR [SYMBOLS] [SIMULATED_SECONDS]`: the daemon's services
/// in process (the replay provider's poller, the evaluator, the SQLite store, the outbox
/// dispatcher, a sink) for SIMULATED_SECONDS (default 3600) of simulated time, SYMBOLS (default
/// 1000) symbols polled every 10 s, at full speed: a clock whose sleeps return at once, having
/// moved time to their deadline; the wall clock follows it.
///
/// Prints CPU seconds per simulated hour, resident memory at start (configuration loaded,
/// store open) and at the end, and the state file's size. Checks its result: every poll ran,
/// every quote was stored, and the alerts fired and delivered equal the in-memory backtest of
/// the same rows and rules; exits 1 on a mismatch.
enum DaemonOverTimeBenchmark {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static let interval = 10

    static func run(directory: String, symbols: Int, simulatedSeconds: Int) async throws {
        let polls = simulatedSeconds / interval
        try? FileManager.default.removeItem(atPath: directory)
        try BenchmarkData.generate(directory: directory, rows: symbols * polls, symbols: symbols, rulesPerSymbol: 5,
                                   stepSeconds: interval)
        try BenchmarkData.moveRulesIntoDirectory(directory)
        try Data(BenchmarkData.replayMainFile(interval: "\(interval)s").utf8).write(to: URL(fileURLWithPath: directory + "/pricewatch.toml"))

        let (configuration, diagnostics) = ConfigurationLoader.load(mainFile: directory + "/pricewatch.toml", environment: [:],
                                                                    schemas: AdapterCatalog.schemas)
        guard let configuration, !diagnostics.containsErrors else {
            throw Failure(description: "daemon-over-time: invalid generated configuration: \(diagnostics)")
        }
        // The reference (the same rows and rules through the backtest) is computed after the
        // run, so its series is not in the memory figures.

        var logger = Logger(label: "pricewatch-bench")
        logger.logLevel = .warning
        let clock = FastClock()
        let startTime = Int64(1_727_875_800) * 1000 // the first row's time
        let wallClock: @Sendable () -> Timestamp = { [clock] in
            Timestamp(milliseconds: startTime + clock.now.offset.components.seconds * 1000
                + clock.now.offset.components.attoseconds / 1_000_000_000_000_000)
        }
        let (providers, providerDiagnostics) = AdapterFactory.providers(for: configuration, transport: NoNetwork())
        guard !providerDiagnostics.containsErrors else { throw Failure(description: "\(providerDiagnostics)") }
        let sink = CountingSink()
        let sinks: [String: any NotificationSink] = ["discard": sink]
        let store = try SQLiteAlertStore.open(path: configuration.statePath)
        let doorbell = Doorbell()
        let evaluator = try await RuleEvaluator(configuration: configuration, store: store, doorbell: doorbell, logger: logger,
                                                now: wallClock())
        let registry = SinkRegistry(sinks, configuration: configuration.sinks)
        let dispatcher = DeliveryDispatcher(store: store, sinks: registry, doorbell: doorbell, clock: ContinuousClock(),
                                            wallClock: wallClock, logger: logger)
        let observer = PollCounter(target: polls)
        let polling = PollingService(
            initial: .init(configuration: configuration, providers: providers, sinks: sinks), consumers: [evaluator],
            clock: clock, wallClock: wallClock, logger: logger, observer: observer)
        let group = ServiceGroup(configuration: .init(services: [.init(service: DispatchService(dispatcher: dispatcher)),
                                                                 .init(service: polling)], logger: logger))
        let residentAtStart = StartupBenchmark.residentKB(getpid())
        let cpuAtStart = cpuSeconds()
        let wallStart = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await observer.waitUntilDone()
            // Delivery runs behind polling: wait (real time, bounded) for the outbox to drain.
            let deadline = ContinuousClock.now.advanced(by: .seconds(120))
            while ContinuousClock.now < deadline, try await store.pendingDeliveryCount() > 0 {
                try await Task.sleep(for: .milliseconds(20))
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        let cpu = cpuSeconds() - cpuAtStart
        let wall = StartupBenchmark.seconds(ContinuousClock.now - wallStart)
        let residentAtEnd = StartupBenchmark.residentKB(getpid())
        let counts = try await store.counts()
        try store.close()
        let (series, dataDiagnostics) = PriceSeriesFile.read(path: directory + "/data.csv")
        guard let series else { throw Failure(description: "daemon-over-time: \(dataDiagnostics)") }
        let referenceAlerts = Backtester.run(rules: configuration.rules, series: series) { _ in }.alerts
        let stateBytes = ["", "-wal", "-shm"].reduce(0) { total, suffix in
            total + ((try? FileManager.default.attributesOfItem(atPath: configuration.statePath + suffix)[.size] as? Int) ?? 0)
        }
        let hours = Double(simulatedSeconds) / 3600
        print("daemon over time: \(symbols) symbols x \(configuration.rules.count / max(symbols, 1)) rules, polled every \(interval) s for \(simulatedSeconds) s simulated (\(polls) polls, replay at full speed)")
        print(String(format: "  CPU                %.2f s per simulated hour (%.2f s CPU, %.2f s wall)", cpu / hours, cpu, wall))
        print(String(format: "  resident memory    %.1f MB at start, %.1f MB at end", Double(residentAtStart) / 1024, Double(residentAtEnd) / 1024))
        print(String(format: "  state file         %.1f MB (%d quotes, %d alerts, %d rule states)", Double(stateBytes) / 1_048_576,
                     counts.quotes, counts.alerts, counts.ruleStates))
        print("  alerts             \(counts.alerts) fired, \(sink.count) delivered, \(referenceAlerts) expected (backtest of the same rows)")
        var mismatches: [String] = []
        if observer.count < polls { mismatches.append("\(observer.count) polls ran, expected \(polls)") }
        if counts.alerts != referenceAlerts { mismatches.append("\(counts.alerts) alerts fired, expected \(referenceAlerts)") }
        if sink.count != referenceAlerts { mismatches.append("\(sink.count) alerts delivered, expected \(referenceAlerts)") }
        if counts.quotes == 0 { mismatches.append("no quote was stored") }
        if !mismatches.isEmpty {
            throw Failure(description: "daemon-over-time: MISMATCH: " + mismatches.joined(separator: "; "))
        }
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// A clock whose sleeps return at once, with time moved on to their deadline.
    struct FastClock: Clock {
        struct Instant: InstantProtocol {
            var offset: Duration
            func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
            func duration(to other: Instant) -> Duration { other.offset - offset }
            static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        }

        private let time = TimeBox()
        var now: Instant { Instant(offset: time.value.withLock { $0 }) }
        var minimumResolution: Duration { .nanoseconds(1) }

        func sleep(until deadline: Instant, tolerance: Duration?) async throws {
            try Task.checkCancellation()
            time.value.withLock { $0 = max($0, deadline.offset) }
            await Task.yield()
            try Task.checkCancellation()
        }

        final class TimeBox: Sendable {
            let value = Mutex<Duration>(.zero)
        }
    }

    /// Counts polls; done after `target`.
    final class PollCounter: DaemonObserver {
        private let state = Mutex<(count: Int, waiter: CheckedContinuation<Void, Never>?)>((0, nil))
        let target: Int

        init(target: Int) { self.target = target }

        var count: Int { state.withLock { $0.count } }

        func waitUntilDone() async {
            await withCheckedContinuation { continuation in
                let done = state.withLock { state -> Bool in
                    if state.count >= target { return true }
                    state.waiter = continuation
                    return false
                }
                if done { continuation.resume() }
            }
        }

        func polled(provider: String, at time: Timestamp) {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.count += 1
                guard state.count >= target, let waiter = state.waiter else { return nil }
                state.waiter = nil
                return waiter
            }
            waiter?.resume()
        }

        func ready(summary: String, pollers: [String: Duration]) {}
        func reloading() {}
        func reloadRejected(reason: String, summary: String, pollers: [String: Duration]) {}
        func stopping() {}
        func run() async {}
    }

    /// A sink that counts what it is given.
    final class CountingSink: NotificationSink {
        private let delivered = Atomic<Int>(0)
        var identity: String { "stdout/discard" }
        var count: Int { delivered.load(ordering: .relaxed) }
        func deliver(_ alert: Alert) async throws(SinkError) { delivered.add(1, ordering: .relaxed) }
    }

    /// The replay provider needs no network.
    struct NoNetwork: HTTPTransport {
        func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
            throw HTTPTransportError(.connectionFailed, "no network in this benchmark")
        }
    }
}
