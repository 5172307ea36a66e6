import Testing
@testable import PriceWatchCore

/// The returns math against values computed by hand (in each test's comment).
@Suite struct PaperReturnsTests {
    func day(_ year: Int, _ month: Int, _ dayOfMonth: Int) -> PaperDay {
        guard let day = PaperDay(year: year, month: month, day: dayOfMonth) else { preconditionFailure("bad date") }
        return day
    }

    func point(_ day: PaperDay, _ equity: String, flow: String = "0") -> PaperReturns.EquityPoint {
        PaperReturns.EquityPoint(day: day, equity: dec(equity), flow: dec(flow))
    }

    @Test func timeWeightedLinksDailyReturnsAfterTheOpeningDeposit() throws {
        // Day 1 opens with 100000 (return 0), day 2 +10%, day 3 -10%: 1.1 * 0.9 - 1 = -1%.
        let start = day(2026, 3, 2)
        let points = [point(start, "100000", flow: "100000"), point(start.advanced(by: 1), "110000"),
                      point(start.advanced(by: 2), "99000")]
        let twr = try #require(PaperReturns.timeWeighted(points, base: 0))
        #expect(abs(twr - -0.01) < 1e-12)
        // The index went 1 -> 1.1 -> 0.99: (1.1 - 0.99) / 1.1 = 10%.
        #expect(abs(PaperReturns.maxDrawdown(points, base: 0) - 0.1) < 1e-12)
    }

    @Test func timeWeightedIgnoresADepositMidPeriod() {
        // Base 100; day 1 +100 in at its start, ends at 210: 210/200 - 1 = 5%; day 2 ends at
        // 231: 10%. TWR = 1.05 * 1.1 - 1 = 15.5%; the deposit is not a gain.
        let start = day(2026, 3, 2)
        let points = [point(start, "210", flow: "100"), point(start.advanced(by: 1), "231")]
        #expect(abs((PaperReturns.timeWeighted(points, base: 100) ?? .nan) - 0.155) < 1e-12)
        #expect(PaperReturns.maxDrawdown(points, base: 100) == 0)
    }

    @Test func moneyWeightedSolvesTheHandComputedRate() throws {
        // -100 at 0, -100 at 1/2, +231 at 1: with x = (1+r)^(1/2), 100x^2 + 100x - 231 = 0, so
        // x = (-100 + 320) / 200 = 1.1 and r = 21%.
        let start = day(2026, 3, 2)
        let points = [point(start, "105"), point(start.advanced(by: 1), "231", flow: "100")]
        let mwr = try #require(PaperReturns.moneyWeighted(points, base: 100))
        #expect(abs(mwr - 0.21) < 1e-9)
    }

    @Test func internalRateHandlesExtremesAndRefusesOneSignedFlows() throws {
        #expect(abs((PaperReturns.internalRate(of: [(0, -100), (1, 110)]) ?? .nan) - 0.1) < 1e-12)
        // A thousandfold: 999 (the bracket grows until it holds the root).
        #expect(abs((PaperReturns.internalRate(of: [(0, -1), (1, 1000)]) ?? .nan) - 999) < 1e-6)
        // Almost everything lost: -99.999%.
        #expect(abs((PaperReturns.internalRate(of: [(0, -100), (1, 0.001)]) ?? .nan) - -0.99999) < 1e-9)
        #expect(PaperReturns.internalRate(of: [(0, -100), (1, -5)]) == nil)
        #expect(PaperReturns.internalRate(of: [(0, 100)]) == nil)
    }

    @Test func periodsStartWhereWealthfolioStartsThem() {
        let today = day(2026, 11, 25)  // a Wednesday
        #expect(PaperPeriod.today.firstDay(endingOn: today) == today)
        #expect(PaperPeriod.weekToDate.firstDay(endingOn: today) == day(2026, 11, 23))
        #expect(PaperPeriod.monthToDate.firstDay(endingOn: today) == day(2026, 11, 1))
        #expect(PaperPeriod.yearToDate.firstDay(endingOn: today) == day(2026, 1, 1))
        #expect(PaperPeriod.oneYear.firstDay(endingOn: today) == day(2025, 11, 26))
        #expect(PaperPeriod.oneYear.firstDay(endingOn: day(2028, 2, 29)) == day(2027, 3, 1))
        #expect(day(2024, 2, 29).description == "2024-02-29")
        #expect(day(2026, 11, 23).isoWeekday == 1)
        #expect(day(1969, 12, 31).description == "1969-12-31")
    }

    @Test func periodReturnsUseTheEquityBeforeThePeriodAsBase() throws {
        // Opened 2026-11-20 with 1000; 1100 on 11-22 (Sunday), 1210 on 11-23 (Monday), 1089 on
        // 11-24. Week to date (from Monday): base 1100, 1100 -> 1210 -> 1089 = -1%.
        let open = day(2026, 11, 20)
        let points = [point(open, "1000", flow: "1000"), point(open.advanced(by: 1), "1000"),
                      point(open.advanced(by: 2), "1100"), point(open.advanced(by: 3), "1210"),
                      point(open.advanced(by: 4), "1089")]
        let week = try #require(PaperReturns.returns(for: .weekToDate, series: points))
        #expect(week.firstDay == day(2026, 11, 23))
        #expect(abs((week.timeWeighted ?? .nan) - -0.01) < 1e-12)
        #expect(abs((week.moneyWeighted ?? .nan) - -0.01) < 1e-12)
        let all = try #require(PaperReturns.returns(for: .sinceStart, series: points))
        #expect(all.firstDay == open)
        #expect(abs((all.timeWeighted ?? .nan) - 0.089) < 1e-12)
        // Peak 1210, then 1089: 10%.
        #expect(abs(all.maxDrawdown - 0.1) < 1e-12)
    }

    @Test func theEquitySeriesValuesPositionsAtEachDaysLastPrice() {
        let open = day(2026, 3, 2)
        let dayMs = Int64(86_400_000)
        let account = PaperAccount(name: "a", currency: "USD", startingCash: dec("1000"),
                                   openedAt: at(open.daysSinceEpoch * dayMs + 1000))
        let fill = PaperFill(orderID: "o1", account: "a", symbol: "X", side: .buy, quantity: dec("2"), price: dec("100"),
                             notional: dec("200"), fee: .zero, quoteTime: at(0),
                             bookedAt: at((open.daysSinceEpoch + 1) * dayMs + 1000), provider: "replay")
        let history: [String: PaperEquitySeries.PriceHistory] = [
            "X": [(at((open.daysSinceEpoch + 1) * dayMs + 5000), dec("110")),
                  (at((open.daysSinceEpoch + 2) * dayMs + 5000), dec("120"))],
        ]
        // Day 1: 1000 deposited. Day 2: 800 cash + 2 * 110. Day 3: 800 + 2 * 125 (the latest price wins today).
        let series = PaperEquitySeries.build(account: account, postings: PaperPosting.opening(of: account) + fill.postings,
                                             history: history, latest: ["X": dec("125")], today: open.advanced(by: 2))
        #expect(series.map(\.equity) == [dec("1000"), dec("1020"), dec("1050")])
        #expect(series.map(\.flow) == [dec("1000"), .zero, .zero])
    }
}
