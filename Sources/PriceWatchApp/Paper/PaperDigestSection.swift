import FoundationEssentials
import PriceWatchCore
import PriceWatchPresentation
import PriceWatchServices
import PriceWatchStore

/// The paper accounts in a digest, a performance report for each (docs/paper-trading.md,
/// "Performance reports"): equity, return since start, cash and the day's change at the latest
/// stored prices (as `pricewatch paper show` computes them), then the period's change of the
/// positions held and the best and worst of them. The digest's `paper` chooses which accounts
/// (all by default); nothing when there is none.
struct PaperDigestSection: DigestSection {
    let store: SQLiteAlertStore

    func content(for window: Range<Timestamp>, settings: DigestSettings) async throws -> DigestSectionContent? {
        let accounts = try await store.paperAccounts().sorted(by: { $0.name < $1.name })
        let chosen = settings.paperAccounts.map { names in accounts.filter { names.contains($0.name) } } ?? accounts
        var lines: [String] = []
        for name in settings.paperAccounts ?? [] where !accounts.contains(where: { $0.name == name }) {
            lines.append("\(name): no such paper account (pricewatch paper open \(name) ...)")
        }
        guard !chosen.isEmpty || !lines.isEmpty else { return nil }
        let latest = RecordedPrices(try await store.latestQuoteDetails()).prices
        for account in chosen {
            let statement = try await PaperTrading.statement(of: account, store: store)
            let percent = PaperRendering.percentText(statement.returnSinceStart)
            var day = ExactDecimal.zero
            for position in statement.positions {
                guard let quote = latest[position.symbol], let close = quote.previousClose, let change = quote.price.subtracting(close),
                      let amount = position.quantity.multiplied(by: change) else { continue }
                day = day.adding(amount) ?? day
            }
            lines.append("\(account.name): equity \(PaperRendering.money(statement.equity)) \(account.currency), "
                         + "\(percent) since start, cash \(PaperRendering.money(statement.cash)), "
                         + "day \(PaperRendering.money(day))")
            let holdings = statement.positions.filter { $0.quantity.scaled != 0 }.map { position in
                (PeriodPerformance.Holding(symbol: position.symbol, quantity: position.quantity, rate: ExactDecimal(scaled: ExactDecimal.unit)),
                 price: position.price)
            }
            lines += PortfolioDigestSection.performanceLines(
                try await PortfolioDigestSection.performance(of: holdings, window: window, period: settings.period, store: store),
                currency: account.currency, period: settings.period)
        }
        return DigestSectionContent(title: "Paper accounts", lines: lines)
    }
}
