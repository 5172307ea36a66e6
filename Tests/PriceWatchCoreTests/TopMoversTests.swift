import Foundation
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// Top movers over recorded monthly prices agree with an independent computation in Double.
@Suite struct TopMoversTests {
    struct Row {
        var symbol: String
        var date: String
        var price: Double
        var exact: ExactDecimal
    }

    static func rows() throws -> [Row] {
        let text = try String(contentsOfFile: RepositoryFiles.path("Tests/Fixtures/history/stocks-monthly-2000-2010.csv"), encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).dropFirst().compactMap { line in
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count >= 3, let price = Double(fields[2]), let exact = ExactDecimal(fields[2]) else { return nil }
            return Row(symbol: fields[0], date: fields[1], price: price, exact: exact)
        }
    }

    static func candles(_ rows: [Row]) throws -> [String: [Candle]] {
        var bySymbol: [String: [Candle]] = [:]
        for row in rows {
            let time = try #require(Timestamp(parsing: row.date + "T00:00:00Z"), "bad date \(row.date)")
            bySymbol[row.symbol, default: []].append(
                Candle(time: time, interval: .oneDay, open: row.exact, high: row.exact, low: row.exact, close: row.exact))
        }
        return bySymbol
    }

    /// Every month of the data set: the movers of the month that starts on `month` against
    /// the month before, by a plain Double computation over the CSV rows.
    @Test(arguments: ["2008-10-01", "2009-03-01", "2010-03-01", "2004-08-01"])
    func moversAgreeWithAnIndependentComputation(month: String) throws {
        let rows = try Self.rows()
        try #require(rows.count == 560, "expected 560 rows in the monthly fixture, read \(rows.count)")
        let due = Timestamp(seconds: try #require(Timestamp(parsing: month + "T00:00:00Z")).seconds + 86_400)
        let window = try #require(DigestPeriod.month.window(endingAt: due, timeZone: "UTC"))
        let movers = TopMovers(candles: try Self.candles(rows), period: window, count: 2)

        // Independent: each symbol's price on `month` against its previous row.
        var changes: [(String, Double)] = []
        for symbol in Set(rows.map(\.symbol)) {
            let history = rows.filter { $0.symbol == symbol }.sorted { $0.date < $1.date }
            guard let index = history.firstIndex(where: { $0.date == month }), index > 0 else { continue }
            changes.append((symbol, (history[index].price - history[index - 1].price) / history[index - 1].price * 100))
        }
        // GOOG's first month (its listing, 2004-08) has no month before: no change to rank.
        #expect(changes.count == (month == "2004-08-01" ? 4 : 5), "symbols with a change in \(month): \(changes.count)")
        let gainers = changes.filter { $0.1 > 0 }.sorted { $0.1 > $1.1 }.prefix(2)
        let losers = changes.filter { $0.1 < 0 }.sorted { $0.1 < $1.1 }.prefix(2)
        #expect(movers.gainers.map(\.symbol) == gainers.map(\.0), "gainers of \(month)")
        #expect(movers.losers.map(\.symbol) == losers.map(\.0), "losers of \(month)")
        for (mover, expected) in zip(movers.gainers + movers.losers, Array(gainers) + Array(losers)) {
            let exact = Double(mover.percentChange.scaled) / Double(ExactDecimal.unit)
            #expect(abs(exact - expected.1) < 1e-6, "\(mover.symbol): \(exact) vs \(expected.1)")
        }
    }

    @Test func symbolsWithoutDataInThePeriodAreListedNotRanked() throws {
        let rows = try Self.rows()
        var candles = try Self.candles(rows)
        candles["NEW"] = []
        let due = try #require(Timestamp(parsing: "2010-03-02T00:00:00Z"))
        let window = try #require(DigestPeriod.month.window(endingAt: due, timeZone: "UTC"))
        let movers = TopMovers(candles: candles, period: window, count: 10)
        #expect(movers.withoutData == ["NEW"])
        #expect(!(movers.gainers + movers.losers).contains { $0.symbol == "NEW" })
    }
}

@Suite struct DigestPeriodTests {
    /// The week that ends on Monday 2024-11-04 08:00 in New York spans the end of daylight
    /// saving time: it starts at 08:00 EDT a week earlier and is 169 hours long.
    @Test func aWeekAcrossTheEndOfDSTIsSevenLocalDays() throws {
        let due = try #require(Timestamp(parsing: "2024-11-04T13:00:00Z"))
        let window = try #require(DigestPeriod.week.window(endingAt: due, timeZone: "America/New_York"))
        #expect(window.lowerBound == Timestamp(parsing: "2024-10-28T12:00:00Z"))
        #expect(window.upperBound.seconds - window.lowerBound.seconds == 169 * 3_600)
    }

    @Test func aWeekAcrossTheStartOfDSTInBerlinIs167Hours() throws {
        let due = try #require(Timestamp(parsing: "2024-04-01T06:00:00Z"))
        let window = try #require(DigestPeriod.week.window(endingAt: due, timeZone: "Europe/Berlin"))
        #expect(window.lowerBound == Timestamp(parsing: "2024-03-25T07:00:00Z"))
        #expect(window.upperBound.seconds - window.lowerBound.seconds == 167 * 3_600)
    }

    @Test func dayAndMonthAndAnUnknownZone() throws {
        let due = try #require(Timestamp(parsing: "2024-03-01T12:00:00Z"))
        #expect(DigestPeriod.day.window(endingAt: due, timeZone: "UTC")?.lowerBound == Timestamp(parsing: "2024-02-29T12:00:00Z"))
        #expect(DigestPeriod.month.window(endingAt: due, timeZone: "UTC")?.lowerBound == Timestamp(parsing: "2024-02-01T12:00:00Z"))
        #expect(DigestPeriod.week.window(endingAt: due, timeZone: "Mars/Olympus") == nil)
    }
}
