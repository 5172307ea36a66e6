@testable import PriceWatchApp
import PriceWatchCore
import PriceWatchStore
import Testing

/// The hourly portfolio valuation (issue 26: the portfolio page's value over time): one point
/// per portfolio and UTC day, the day's last kept, and none for a valuation that leaves a
/// position out (a stale price), so the line never dips for a price the daemon lacked.
@Suite struct PortfolioValueRecorderTests {
    typealias F = EngineFixtures

    static func configuration() -> Configuration {
        var configuration = F.configuration(rules: [F.rule("aapl-1000", .above(F.decimal("1000")), symbols: ["AAPL"])])
        guard let day = CivilDate(year: 2024, month: 1, day: 2) else { preconditionFailure("bad date in a test") }
        configuration.portfolios = [Portfolio(name: "core", currency: "USD", cash: ["USD": F.decimal("100")], lots: [
            PortfolioLot(symbol: "AAPL", quantity: F.decimal("10"), price: F.decimal("200"), currency: "USD", date: day, fees: .zero),
        ])]
        return configuration
    }

    @Test func aDayKeepsItsLastCompleteValuation() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let quoted: Int64 = 1_727_881_200 // 2024-10-02 15:00 UTC
        try await store.commit(StoreCommit(provider: "feed", quotes: [
            Quote(symbol: "AAPL", price: F.decimal("225"), time: Timestamp(seconds: quoted), currency: "USD"),
        ], now: Timestamp(seconds: quoted)))
        let configuration = Self.configuration()
        func recorder(at seconds: Int64) -> PortfolioValueRecorder {
            PortfolioValueRecorder(configuration: { configuration }, store: store, marketHours: AlwaysOpenMarkets(),
                                   wallClock: { Timestamp(seconds: seconds) })
        }
        #expect(try await recorder(at: quoted + 60).record(at: Timestamp(seconds: quoted + 60)) == 1)
        #expect(try await recorder(at: quoted + 120).record(at: Timestamp(seconds: quoted + 120)) == 1)
        let points = try await store.portfolioValues(portfolio: "core", since: Timestamp(seconds: 0))
        #expect(points == [PortfolioValuePoint(portfolio: "core", day: "2024-10-02", time: Timestamp(seconds: quoted + 120), currency: "USD",
                                               value: F.decimal("2350"), cost: F.decimal("2000"))],
                "10 x 225 + 100 cash, cost 10 x 200 (cash has none); the later valuation replaced the earlier: \(points)")

        // Two days later with no newer price: stale (15 minutes on a market always open), not recorded.
        #expect(try await recorder(at: quoted + 2 * 86_400).record(at: Timestamp(seconds: quoted + 2 * 86_400)) == 0)
        #expect(try await store.portfolioValues(portfolio: "core", since: Timestamp(seconds: 0)).count == 1)
        #expect(try await store.portfolioValues(portfolio: "core", since: Timestamp(seconds: quoted + 121)).isEmpty, "since filters")
    }

    @Test func noPortfoliosRecordNothing() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let recorder = PortfolioValueRecorder(configuration: { F.configuration(rules: []) }, store: store,
                                              marketHours: AlwaysOpenMarkets(), wallClock: { Timestamp(seconds: 0) })
        #expect(try await recorder.record(at: Timestamp(seconds: 0)) == 0)
        #expect(PortfolioValueRecorder.name == "portfolio-values")
    }
}
