/// Checks a paper account's ledger against itself: every entry balances (double entry), the
/// opening matches the account, each fill's postings are what its fill says, and the balances
/// derived from the postings obey the account's rules (no negative cash, no short position,
/// unless allowed). What `pricewatch paper check` runs.
public enum PaperLedgerCheck {
    /// The problems found, one sentence each, empty when the ledger is sound.
    public static func problems(account: PaperAccount, postings: [PaperPosting], fills: [PaperFill]) -> [String] {
        var problems: [String] = []
        let name = account.name
        var entries: [String: Int128] = [:]
        var order: [String] = []
        for posting in postings {
            if entries[posting.entry] == nil { order.append(posting.entry) }
            entries[posting.entry, default: 0] += Int128(posting.amount.scaled)
            if posting.account != name {
                problems.append("account \(name): posting of entry \(posting.entry) belongs to account \(posting.account)")
            }
        }
        for entry in order where entries[entry] != 0 {
            problems.append("account \(name): entry \(entry) does not balance: its postings sum to "
                + "\(ExactDecimal(scaled: Int64(clamping: entries[entry] ?? 0)))")
        }
        let opening = PaperPosting.opening(of: account)
        let storedOpening = postings.filter { $0.entry == "open:" + name }
        if Set(storedOpening.map { [$0.ledger.storedName, $0.amount.description] })
            != Set(opening.map { [$0.ledger.storedName, $0.amount.description] }) {
            problems.append("account \(name): the opening entry does not book the starting cash \(account.startingCash)")
        }
        var byEntry: [String: [PaperPosting]] = [:]
        for posting in postings { byEntry[posting.entry, default: []].append(posting) }
        for fill in fills {
            let expected = fill.postings.map { [$0.ledger.storedName, $0.amount.description, $0.quantity.description] }
            let stored = (byEntry[fill.orderID] ?? []).map {
                [$0.ledger.storedName, $0.amount.description, $0.quantity.description]
            }
            if expected.sorted(by: { $0.joined(separator: " ") < $1.joined(separator: " ") })
                != stored.sorted(by: { $0.joined(separator: " ") < $1.joined(separator: " ") }) {
                problems.append("account \(name): the postings of order \(fill.orderID) do not match its fill")
            }
        }
        let fillIDs = Set(fills.map(\.orderID))
        for entry in order where entry != "open:" + name && !fillIDs.contains(entry) {
            problems.append("account \(name): entry \(entry) has postings but no fill")
        }
        var book = PaperBook()
        for posting in postings.sorted(by: { $0.time < $1.time }) {
            book.apply(posting)
        }
        if book.cash < .zero, !account.allowsNegativeCash {
            problems.append("account \(name): cash is \(book.cash) \(account.currency), below zero")
        }
        if !account.allowsShortSelling {
            for (symbol, position) in book.positions.sorted(by: { $0.key < $1.key }) where position.quantity < .zero {
                problems.append("account \(name): position \(symbol) is \(position.quantity), short")
            }
        }
        return problems
    }
}
