import Logging
import PriceWatchCore
import PriceWatchServices
import PriceWatchTestKit
import Synchronization
import Testing

/// The poller with market hours: a closed market's symbols are fetched once after the close
/// and not again until the open, their silence is not staleness, and each open or close is one
/// log line with the fetches saved. Wall time is a manual clock; nothing sleeps.
@Suite struct MarketAwarePollingTests {
    /// Quotes every symbol it is asked for, timed at the wall clock's now (so each is new).
    final class ClockedProvider: QuoteProvider {
        let name = "feed"
        let maximumBatchSize = 100
        let wall: ManualWallClock
        private let recorded = Mutex<[[String]]>([])
        var calls: [[String]] { recorded.withLock { $0 } }

        init(wall: ManualWallClock) { self.wall = wall }

        func fetch(_ symbols: [String]) async throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
            recorded.withLock { $0.append(symbols) }
            let now = wall.now
            return Dictionary(uniqueKeysWithValues: symbols.map { ($0, .success(Quote(symbol: $0, price: ExactDecimal(scaled: ExactDecimal.unit), time: now))) })
        }
    }

    /// Accepts every quote (each is new): the symbols it got are fresh.
    final class AcceptingConsumer: QuoteConsumer {
        func receive(_ poll: PolledQuotes) async -> QuoteReceipt {
            QuoteReceipt(acceptedSymbols: Set(poll.results.compactMap { symbol, result in
                if case .success = result { symbol } else { nil }
            }))
        }
    }

    @Test func aClosedMarketIsPolledOnceAfterTheCloseQuietlyAndAgainAtTheOpen() async throws {
        let friday = try #require(Timestamp(parsing: "2026-11-20T20:58:00Z"))
        let wall = ManualWallClock(friday)
        let clock = ManualClock()
        let provider = ClockedProvider(wall: wall)
        let log = CapturingLogHandler()
        var settings = PollingSettings()
        settings.staleAfter = .seconds(900)
        let hours = WeeklyMarketHours.sample(symbols: ["AAPL": MarketIdentifier("XNYS"), "BTC-USD": .crypto])
        let poller = ProviderPoller(provider: provider, symbols: ["AAPL", "BTC-USD"], interval: .seconds(60),
                                    consumers: [AcceptingConsumer()], clock: clock, wallClock: wall.function, logger: log.logger,
                                    settings: settings, marketHours: hours)
        // 15:58 and 15:59 New York (open), 16:00 (the closing poll), then an hour of closed market.
        for _ in 0..<63 {
            await poller.pollOnce()
            clock.advance(by: .seconds(60))
            wall.advance(seconds: 60)
        }
        #expect(provider.calls.prefix(3).allSatisfy { $0 == ["AAPL", "BTC-USD"] })
        #expect(provider.calls.dropFirst(3).allSatisfy { $0 == ["BTC-USD"] })
        #expect(provider.calls.count == 63)
        #expect(poller.savedFetches == 60)
        #expect(log.lines(atLeast: .warning).isEmpty, "a closed market's symbol is not stale: \(log.lines(atLeast: .warning).map(\.message))")

        // Monday 09:30 New York.
        wall.advance(seconds: (try #require(Timestamp(parsing: "2026-11-23T14:30:00Z"))).seconds - wall.now.seconds)
        await poller.pollOnce()
        #expect(provider.calls.last == ["AAPL", "BTC-USD"])
        let market = log.lines.filter { $0.message.hasPrefix("market ") }.map(\.message)
        #expect(market == [
            "market XNYS closed: 1 symbol(s) get one closing poll, then none until it opens at 2026-11-23T14:30:00Z",
            "market XNYS opened: polling its 1 symbol(s) again; 60 symbol fetch(es) saved while it was closed",
        ])
        #expect(log.lines(atLeast: .warning).isEmpty)
    }

    @Test func withoutMarketHoursEverySymbolIsPolledAtEveryTick() async throws {
        let wall = ManualWallClock(try #require(Timestamp(parsing: "2026-11-21T12:00:00Z")))
        let clock = ManualClock()
        let provider = ClockedProvider(wall: wall)
        let poller = ProviderPoller(provider: provider, symbols: ["AAPL", "BTC-USD"], interval: .seconds(60),
                                    consumers: [AcceptingConsumer()], clock: clock, wallClock: wall.function, logger: EngineFixtures.logger)
        for _ in 0..<5 {
            await poller.pollOnce()
            wall.advance(seconds: 60)
        }
        #expect(provider.calls == Array(repeating: ["AAPL", "BTC-USD"], count: 5))
        #expect(poller.savedFetches == 0)
    }
}

/// The poller fills in a quote's exchange time zone from the calendars when the provider did
/// not say it, and leaves every other quote as the provider answered it.
@Suite struct PolledQuoteTimeZoneTests {
    @Test func aQuoteWithoutAZoneGetsItsMarketsAndOthersAreLeftAsAnswered() async throws {
        let time = try #require(Timestamp(parsing: "2026-11-23T15:00:00Z"))
        var said = Quote(symbol: "SAP.DE", price: ExactDecimal(scaled: 100_00000000), time: time)
        said.exchangeTimeZone = "Europe/Berlin"
        let answers: [String: Result<Quote, ProviderError>] = [
            "AAPL": .success(Quote(symbol: "AAPL", price: ExactDecimal(scaled: 200_00000000), time: time)),
            "SAP.DE": .success(said),
            "ZZZZ": .success(Quote(symbol: "ZZZZ", price: ExactDecimal(scaled: 1_00000000), time: time)),
            "GONE": .failure(ProviderError(.unknownSymbol, "no such symbol")),
        ]
        let provider = ScriptedProvider(name: "p", answers: [answers])
        let consumer = QuoteStreamTests.RecordingConsumer()
        let hours = WeeklyMarketHours.sample(symbols: ["AAPL": MarketIdentifier("XNYS"), "SAP.DE": MarketIdentifier("XNYS")])
        let poller = ProviderPoller(provider: provider, symbols: ["AAPL", "SAP.DE", "ZZZZ", "GONE"], interval: .seconds(60),
                                    consumers: [consumer], clock: ManualClock(), wallClock: ManualWallClock(time).function,
                                    logger: EngineFixtures.logger, marketHours: hours)
        await poller.pollOnce()
        let poll = try #require(consumer.received.first)
        #expect(try poll.results["AAPL"]?.get().exchangeTimeZone == "America/New_York", "filled in from its market")
        #expect(try poll.results["SAP.DE"]?.get().exchangeTimeZone == "Europe/Berlin", "the provider's own zone is kept")
        #expect(try poll.results["ZZZZ"]?.get().exchangeTimeZone == nil, "no market known: no zone invented")
        #expect(poll.results["GONE"].map { if case .failure = $0 { true } else { false } } == true)
    }
}
