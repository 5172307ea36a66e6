import Logging
import PriceWatchCore
import PriceWatchHTTP
import PriceWatchServices
import PriceWatchTestKit
import Testing

/// Each poll's phases reach `/metrics` as histograms, timed on the poller's clock: a slow
/// cycle says whether the time went to the provider or to the consumers' commits.
@Suite struct PollPhaseMetricsTests {
    /// A provider whose answer takes `latency` on the manual clock.
    struct SlowProvider: QuoteProvider {
        let name = "slow"
        let maximumBatchSize = 10
        let clock: ManualClock
        let latency: Duration
        func fetch(_ symbols: [String]) async throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
            clock.advance(by: latency)
            var answers: [String: Result<Quote, ProviderError>] = [:]
            for symbol in symbols {
                answers[symbol] = .success(Quote(symbol: symbol, price: ExactDecimal(scaled: 100 * ExactDecimal.unit),
                                                 time: Timestamp(milliseconds: 1_727_875_800_000)))
            }
            return answers
        }
    }

    /// A consumer whose commit takes `latency` on the manual clock.
    struct SlowConsumer: QuoteConsumer {
        let clock: ManualClock
        let latency: Duration
        func receive(_ poll: PolledQuotes) async -> QuoteReceipt {
            clock.advance(by: latency)
            return .none
        }
    }

    @Test func eachPhaseOfAPollIsAHistogramOnThePollersClock() async throws {
        let exporter = MetricsExporter()
        let clock = ManualClock()
        let poller = ProviderPoller(provider: SlowProvider(clock: clock, latency: .milliseconds(1_500)), symbols: ["AAPL", "MSFT"],
                                    interval: .seconds(60), consumers: [SlowConsumer(clock: clock, latency: .seconds(3))],
                                    clock: clock, wallClock: { Timestamp(milliseconds: 1_727_875_800_000) },
                                    logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                                    metrics: DaemonMetrics(factory: exporter.factory))
        await poller.pollOnce()
        let text = String(decoding: exporter.render(), as: UTF8.self)
        // Fetch: 1.5 s (in the 2.5 s bucket, not the 1 s one); consume: 3 s (in 5 s, not 2.5 s).
        #expect(text.contains(#"pricewatch_poll_phase_duration_seconds_bucket{provider="slow",phase="fetch",le="1.0"} 0"#), "\(text)")
        #expect(text.contains(#"pricewatch_poll_phase_duration_seconds_bucket{provider="slow",phase="fetch",le="2.5"} 1"#), "\(text)")
        #expect(text.contains(#"pricewatch_poll_phase_duration_seconds_bucket{provider="slow",phase="consume",le="2.5"} 0"#), "\(text)")
        #expect(text.contains(#"pricewatch_poll_phase_duration_seconds_bucket{provider="slow",phase="consume",le="5.0"} 1"#), "\(text)")
        #expect(text.contains(#"pricewatch_poll_phase_duration_seconds_sum{provider="slow",phase="plan"} 0"#), "\(text)")
        #expect(text.contains(#"pricewatch_poll_duration_seconds_sum{provider="slow"} 4.5"#), "\(text)")
        #expect(text.contains(#"pricewatch_poll_duration_seconds_count{provider="slow"} 1"#), "\(text)")
    }
}
