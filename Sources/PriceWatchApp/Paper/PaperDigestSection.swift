import Foundation
import PriceWatchCore
import PriceWatchStore

/// The paper accounts in a digest: each account's equity, return since start and cash, from the
/// ledger and the latest stored prices (as `pricewatch paper show` computes them); nothing when
/// there is no account.
struct PaperDigestSection: DigestSection {
    let store: SQLiteAlertStore

    func content(for window: Range<Timestamp>) async throws -> DigestSectionContent? {
        let accounts = try await store.paperAccounts()
        guard !accounts.isEmpty else { return nil }
        var lines: [String] = []
        for account in accounts.sorted(by: { $0.name < $1.name }) {
            let statement = try await PaperTrading.statement(of: account, store: store)
            let percent = (statement.returnSinceStart * 10_000).rounded() / 100
            lines.append("\(account.name): equity \(PaperRendering.money(statement.equity)) \(account.currency), "
                         + "\(percent >= 0 ? "+" : "")\(String(format: "%.2f", percent)) % since start, cash \(PaperRendering.money(statement.cash))")
        }
        return DigestSectionContent(title: "Paper accounts", lines: lines)
    }
}
