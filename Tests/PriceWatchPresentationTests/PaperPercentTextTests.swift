import Foundation
import Testing
@testable import PriceWatchCore
import PriceWatchPresentation

/// The percents of `paper show` and `paper history` against the same percents computed apart,
/// with Foundation's `Decimal`: the sign of a loss, and the digits of a small move.
@Suite struct PaperPercentTextTests {
    let opened = Timestamp(seconds: 1_764_000_000)

    /// `profit / start` as a percent, in decimal arithmetic: two fractional digits, or as many
    /// (up to six) as two significant digits of a smaller move need; the sign of `profit`.
    func expectedPercent(profit: String, start: String) throws -> String {
        let profitValue = try #require(Decimal(string: profit))
        let startValue = try #require(Decimal(string: start))
        var magnitude = profitValue.magnitude / startValue * 100
        var digits = 2
        func rounded(_ places: Int) -> Decimal {
            var value = magnitude
            var result = Decimal()
            NSDecimalRound(&result, &value, places, .plain)
            return result
        }
        var shown = rounded(2)
        if shown == 0 && profitValue != 0 {
            while digits < 6 {
                digits += 1
                shown = rounded(digits)
                if shown * pow(10, digits) >= 10 { break }
            }
            if shown == 0 { digits = 2 }
        }
        magnitude = shown
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.usesGroupingSeparator = false
        formatter.minimumIntegerDigits = 1
        formatter.minimumFractionDigits = digits
        formatter.maximumFractionDigits = digits
        let text = try #require(formatter.string(from: magnitude as NSDecimalNumber))
        return (profitValue < 0 ? "-" : "+") + text + "%"
    }

    /// An account that started with `start` and paid `fee` (a fee is a loss of the same amount).
    func statement(start: String, fee: String) -> PaperReports.Statement {
        let account = PaperAccount(name: "alice", currency: "USD", startingCash: dec(start), openedAt: opened)
        let paid = [
            PaperPosting(entry: "o1", account: "alice", ledger: .cash, amount: dec(fee).negated, quantity: .zero, time: opened),
            PaperPosting(entry: "o1", account: "alice", ledger: .fees, amount: dec(fee), quantity: .zero, time: opened),
        ]
        return PaperReports.statement(account: account, postings: PaperPosting.opening(of: account) + paid, orders: [], prices: [:])
    }

    @Test(arguments: [("100000", "4.84"), ("10000", "4.84"), ("100000", "0.30"), ("1000", "25"), ("100000", "0"),
                      ("1000000000", "0.0001"), ("100", "0.004")])
    func showPrintsTheReturnOfTheProfit(start: String, fee: String) throws {
        let text = PaperRendering.text(statement(start: start, fee: fee))
        let profit = fee == "0" ? "0" : "-" + fee
        let expected = try expectedPercent(profit: profit, start: start)
        let line = text.split(separator: "\n").first { $0.hasPrefix("P&L") }.map(String.init) ?? ""
        #expect(line.contains("(\(expected) since start of"), "\(line), expected \(expected)")
    }

    @Test func aSmallLossShowsItsSignAndTwoSignificantDigits() {
        // 4.84 lost of 100000: -0.00484%, which two digits would round to +0.00%.
        #expect(PaperRendering.text(statement(start: "100000", fee: "4.84")).contains("P&L        -4.84 USD (-0.0048% since start of 100000.00)"))
        #expect(PaperRendering.percentText(-0.000484) == "-0.05%")
        #expect(PaperRendering.percentText(0) == "+0.00%")
        #expect(PaperRendering.percentText(-0.0) == "+0.00%")
        #expect(PaperRendering.percentText(.nan) == "n/a")
    }

    @Test func historyShowsTheDrawdownOfALossAsNegative() throws {
        // One day at the opening deposit, the next 4.84 lower: a fall of 4.84 / 100000 from the peak.
        guard let first = PaperDay(year: 2026, month: 11, day: 23) else { preconditionFailure("bad date") }
        let account = PaperAccount(name: "alice", currency: "USD", startingCash: dec("100000"), openedAt: opened)
        let series = [PaperReturns.EquityPoint(day: first, equity: dec("100000"), flow: dec("100000")),
                      PaperReturns.EquityPoint(day: first.advanced(by: 1), equity: dec("99995.16"))]
        let text = PaperRendering.text(PaperReports.history(account: account, series: series))
        let drawdown = try expectedPercent(profit: "-4.84", start: "100000")
        let all = text.split(separator: "\n").first { $0.hasPrefix("ALL") }.map(String.init) ?? ""
        #expect(drawdown == "-0.0048%")
        #expect(all.hasSuffix(drawdown), "\(text)")
    }
}
