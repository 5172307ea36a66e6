/// One line of the append-only paper ledger: an amount of the account's currency moved into
/// (positive) or out of (negative) one ledger account. The postings of one entry (an opening,
/// a fill) sum to zero: that is the double entry ``PaperLedgerCheck`` verifies.
public struct PaperPosting: Sendable, Hashable {
    /// The ledger accounts of a paper account.
    public enum Ledger: Sendable, Hashable, Comparable {
        /// The account's cash.
        case cash
        /// A position: the money put into (or taken out of) one symbol, with its units.
        case position(String)
        /// Fees paid.
        case fees
        /// The owner's equity: the opening deposit is booked against it.
        case equity

        /// The name stored in the ledger: `cash`, `position:SYMBOL`, `fees`, `equity`.
        public var storedName: String {
            switch self {
            case .cash: "cash"
            case .position(let symbol): "position:" + symbol
            case .fees: "fees"
            case .equity: "equity"
            }
        }

        /// The ledger account of a stored name; nil for a name this version does not know.
        public init?(storedName: String) {
            switch storedName {
            case "cash": self = .cash
            case "fees": self = .fees
            case "equity": self = .equity
            default:
                guard storedName.hasPrefix("position:"), storedName.count > 9 else { return nil }
                self = .position(String(storedName.dropFirst(9)))
            }
        }
    }

    /// The entry the posting belongs to: an order id, or `open:ACCOUNT` for the opening.
    public var entry: String
    public var account: String
    public var ledger: Ledger
    /// Signed amount in the account's currency.
    public var amount: ExactDecimal
    /// Signed units of the symbol (positions only; zero elsewhere).
    public var quantity: ExactDecimal
    /// When it was booked (wall clock).
    public var time: Timestamp

    public init(entry: String, account: String, ledger: Ledger, amount: ExactDecimal, quantity: ExactDecimal,
                time: Timestamp) {
        self.entry = entry
        self.account = account
        self.ledger = ledger
        self.amount = amount
        self.quantity = quantity
        self.time = time
    }

    /// The opening entry of `account`: its starting cash against equity.
    public static func opening(of account: PaperAccount) -> [PaperPosting] {
        let entry = "open:" + account.name
        return [
            PaperPosting(entry: entry, account: account.name, ledger: .cash, amount: account.startingCash,
                         quantity: .zero, time: account.openedAt),
            PaperPosting(entry: entry, account: account.name, ledger: .equity,
                         amount: ExactDecimal(scaled: -account.startingCash.scaled), quantity: .zero,
                         time: account.openedAt),
        ]
    }
}
