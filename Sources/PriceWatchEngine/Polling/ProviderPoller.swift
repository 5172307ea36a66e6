import Logging
import PriceWatchCore
import PriceWatchSystemd

/// Polls one provider for its symbols at a fixed rate, on a monotonic clock, without drift.
///
/// Ticks are at `start + k * interval`; a poll that overruns its interval skips the ticks it
/// missed rather than bursting to catch up. Each provider has its own poller task, so one
/// provider's slowness never delays another.
public struct ProviderPoller<C: Clock<Duration>>: Sendable {
    public let provider: any QuoteProvider
    public let symbols: [String]
    public let interval: Duration
    let evaluator: RuleEvaluator
    let clock: C
    let wallClock: @Sendable () -> Timestamp
    let logger: Logger
    /// Called after every poll (the watchdog and status use it).
    let onPoll: @Sendable (Timestamp) -> Void

    public init(provider: any QuoteProvider, symbols: [String], interval: Duration, evaluator: RuleEvaluator,
                clock: C, wallClock: @escaping @Sendable () -> Timestamp, logger: Logger,
                onPoll: @escaping @Sendable (Timestamp) -> Void = { _ in }) {
        self.provider = provider
        self.symbols = symbols
        self.interval = interval
        self.evaluator = evaluator
        self.clock = clock
        self.wallClock = wallClock
        self.logger = logger
        self.onPoll = onPoll
    }

    /// Runs until the task is cancelled.
    public func run() async {
        var next = clock.now
        while !Task.isCancelled {
            await pollOnce()
            next = next.advanced(by: interval)
            let now = clock.now
            if next < now {
                var skipped = 0
                while next < now {
                    next = next.advanced(by: interval)
                    skipped += 1
                }
                logger.warning("poll took longer than the interval; skipped \(skipped) poll(s)", metadata: ["provider": "\(provider.name)"])
            }
            do {
                try await clock.sleep(until: next, tolerance: nil)
            } catch {
                return
            }
        }
    }

    /// One poll: every batch of symbols, then evaluation.
    public func pollOnce() async {
        var results: [String: Result<Quote, ProviderError>] = [:]
        let batchSize = max(provider.maximumBatchSize, 1)
        for start in stride(from: 0, to: symbols.count, by: batchSize) {
            let batch = Array(symbols[start..<min(start + batchSize, symbols.count)])
            do {
                results.merge(try await provider.fetch(batch)) { $1 }
            } catch {
                logger.warning("fetch failed: \(error)", metadata: ["provider": "\(provider.name)", "symbols": "\(batch.count)",
                                                                    OperatorEvent.metadataKey: OperatorEvent.providerFailing.metadataValue])
            }
        }
        for (symbol, result) in results {
            if case .failure(let error) = result {
                logger.warning("\(symbol): \(error)", metadata: ["provider": "\(provider.name)", "symbol": "\(symbol)"])
            }
        }
        let now = wallClock()
        do {
            try await evaluator.ingest(provider: provider.name, results: results, now: now)
        } catch {
            logger.error("evaluation failed: \(error)", metadata: ["provider": "\(provider.name)"])
        }
        onPoll(now)
    }
}
