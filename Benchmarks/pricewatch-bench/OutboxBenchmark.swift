import Foundation
import Logging
import PriceWatchCore
import PriceWatchApp
import PriceWatchServices
import PriceWatchStore
import PriceWatchTestKit
import Synchronization

/// `pricewatch-bench outbox DIR [LATENCY_ALERTS] [THROUGHPUT_ALERTS]`: the delivery path of the
/// daemon, in process, to a fast loopback webhook receiver:
///
/// - latency: one quote at a time, from the moment the `RuleEvaluator` is handed the quote
///   (which accepts it, fires, commits the alert and its outbox row to SQLite in one
///   transaction, rings the dispatcher) to the moment the receiver has read the webhook
///   request; p50, p99 and max over LATENCY_ALERTS (default 1000) alerts;
/// - throughput: THROUGHPUT_ALERTS (default 10000) alerts fired 100 per poll as fast as the
///   evaluator takes them, through the outbox (per-sink concurrency 4, the default) until the
///   receiver has every one; alerts per second.
///
/// The parts are the daemon's own: a WAL SQLite file in DIR, the evaluator, the dispatcher, the
/// webhook sink built by `AdapterFactory`, the libcurl transport. Prints numbers, asserts nothing.
enum OutboxBenchmark {
    /// Arrival times at the receiver, by alert id.
    final class Arrivals: Sendable {
        private let state = Mutex<(times: [String: ContinuousClock.Instant], waiter: (id: String, continuation: CheckedContinuation<Void, Never>)?)>(([:], nil))

        func record(_ id: String, at instant: ContinuousClock.Instant) {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                if state.times[id] == nil { state.times[id] = instant }
                guard let waiter = state.waiter, waiter.id == id else { return nil }
                state.waiter = nil
                return waiter.continuation
            }
            waiter?.resume()
        }

        var count: Int { state.withLock { $0.times.count } }
        func time(of id: String) -> ContinuousClock.Instant? { state.withLock { $0.times[id] } }

        /// Returns when the request of alert `id` has arrived.
        func wait(for id: String) async {
            await withCheckedContinuation { continuation in
                let arrived = state.withLock { state -> Bool in
                    if state.times[id] != nil { return true }
                    state.waiter = (id, continuation)
                    return false
                }
                if arrived { continuation.resume() }
            }
        }
    }

    static func main(_ arguments: [String]) {
        let done = DispatchSemaphore(value: 0)
        let failure = Mutex<String?>(nil)
        Task {
            do {
                try await run(arguments)
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
            done.signal()
        }
        done.wait()
        if let message = failure.withLock({ $0 }) {
            FileHandle.standardError.write(Data("outbox benchmark failed: \(message)\n".utf8))
            exit(1)
        }
    }

    static func run(_ arguments: [String]) async throws {
        guard let directory = arguments.first else { throw BenchmarkError("usage: pricewatch-bench outbox DIR [LATENCY_ALERTS] [THROUGHPUT_ALERTS]") }
        let numbers = arguments.dropFirst().compactMap { Int($0) }
        let latencyAlerts = numbers.first ?? 1_000
        let throughputAlerts = numbers.dropFirst().first ?? 10_000
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)

        let arrivals = Arrivals()
        let clock = ContinuousClock()
        let receiver = try LoopbackHTTPServer()
        defer { receiver.stop() }
        receiver.route("POST", "/hook") { request in
            let now = clock.now
            if let id = alertID(in: request.body) { arrivals.record(id, at: now) }
            return .status(204)
        }

        let symbols = (0..<100).map { "S\($0)" }
        let rule = Rule(id: "bench-crosses", symbols: ["LAT"] + symbols, provider: "bench", condition: .crosses(ExactDecimal(scaled: 10_000_000_000)),
                        notify: ["hook"])
        guard let interval = RuleDuration(seconds: 60), let retention = RuleDuration(seconds: 86_400) else { throw BenchmarkError("durations") }
        let sinkSettings = SinkConfiguration(name: "hook", type: "webhook",
                                             options: AdapterOptions(["url": .string(receiver.baseURL + "/hook")]))
        let configuration = Configuration(
            mainFile: "bench.toml", statePath: directory + "/outbox.db", interval: interval, retention: retention,
            providers: [ProviderConfiguration(name: "bench", type: "bench", interval: interval)],
            sinks: [sinkSettings], rules: [rule])
        let (sinks, diagnostics) = AdapterFactory.sinks(for: configuration)
        guard diagnostics.isEmpty else { throw BenchmarkError("\(diagnostics)") }

        try? FileManager.default.removeItem(atPath: configuration.statePath)
        let store = try SQLiteAlertStore.open(path: configuration.statePath)
        let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        let wallClock: @Sendable () -> Timestamp = { Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))) }
        let doorbell = Doorbell()
        let evaluator = try await RuleEvaluator(configuration: configuration, store: store, doorbell: doorbell, logger: logger, now: wallClock())
        let dispatcher = DeliveryDispatcher(store: store, sinks: SinkRegistry(sinks, configuration: configuration.sinks),
                                            doorbell: doorbell, clock: clock, wallClock: wallClock, logger: logger)
        let dispatching = Task { await dispatcher.run() }
        defer { dispatching.cancel() }

        var quoteTime: Int64 = 1_727_875_800
        func quote(_ symbol: String, step: Int) -> Quote {
            // 90, 110, 90, ...: every quote after the first crosses 100.
            Quote(symbol: symbol, price: ExactDecimal(scaled: step.isMultiple(of: 2) ? 9_000_000_000 : 11_000_000_000),
                  time: Timestamp(seconds: quoteTime), currency: "USD")
        }

        // Latency: one alert at a time, nothing else in the outbox.
        _ = try await evaluator.ingest(provider: "bench", results: ["LAT": .success(quote("LAT", step: 0))], now: wallClock())
        var latencies: [Duration] = []
        latencies.reserveCapacity(latencyAlerts)
        for step in 1...max(latencyAlerts, 1) {
            quoteTime += 1
            let started = clock.now
            let report = try await evaluator.ingest(provider: "bench", results: ["LAT": .success(quote("LAT", step: step))], now: wallClock())
            guard let id = report.alerts.first?.id else { throw BenchmarkError("quote \(step) fired nothing") }
            await arrivals.wait(for: id)
            if let arrived = arrivals.time(of: id) { latencies.append(started.duration(to: arrived)) }
        }
        latencies.sort()
        func percentile(_ p: Double) -> Duration { latencies[min(Int(Double(latencies.count) * p), latencies.count - 1)] }
        func ms(_ duration: Duration) -> String {
            let (seconds, attoseconds) = duration.components
            return String(format: "%.2f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
        }
        print("outbox latency, accepted quote -> webhook request at the receiver (\(latencies.count) alerts, one at a time):")
        print("  p50 \(ms(percentile(0.50)))  p99 \(ms(percentile(0.99)))  max \(ms(latencies.last ?? .zero))")

        // Throughput: 100 alerts per poll, as fast as the evaluator commits them.
        let before = arrivals.count
        let polls = max(throughputAlerts / symbols.count, 1)
        let started = clock.now
        for step in 0...polls {
            quoteTime += 1
            var results: [String: Result<Quote, ProviderError>] = [:]
            for symbol in symbols { results[symbol] = .success(quote(symbol, step: step)) }
            _ = try await evaluator.ingest(provider: "bench", results: results, now: wallClock())
        }
        let committed = started.duration(to: clock.now)
        let expected = before + polls * symbols.count
        while arrivals.count < expected {
            try await Task.sleep(for: .milliseconds(1))
        }
        let elapsed = started.duration(to: clock.now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("outbox throughput: \(polls * symbols.count) alerts (100 per commit) delivered in \(String(format: "%.2f", seconds)) s: "
              + "\(String(format: "%.0f", Double(polls * symbols.count) / seconds)) alerts/s (all committed after \(ms(committed)))")
        await dispatcher.stop()
        try store.close()
    }

    /// The `"id"` of pricewatch's webhook payload, found without a JSON parser (the receiver
    /// must stay fast).
    static func alertID(in body: [UInt8]) -> String? {
        let text = String(decoding: body, as: UTF8.self)
        guard let start = text.range(of: "\"id\":\"") else { return nil }
        guard let end = text[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(text[start.upperBound..<end])
    }

    struct BenchmarkError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
