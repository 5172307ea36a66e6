/// The paper-trading role of the store: accounts, orders and the append-only, double-entry
/// ledger. Written by the `pricewatch paper` commands (accounts, orders, cancellations) and by
/// the daemon's fill consumer (fills and rejections), possibly at the same time, through the
/// same database file.
///
/// The contract:
///
/// - Nothing is ever updated or deleted: an account, an order, a posting and an order's
///   outcome are each inserted once.
/// - Every operation is idempotent: opening an account or placing an order whose name or id is
///   already stored with the same content books nothing and answers what is stored; with a
///   different content it throws ``PaperLedgerError/conflict(_:)``.
/// - An order has at most one outcome. ``book(_:notifications:now:)`` inserts each outcome
///   with its postings (and its notification, if any) in one transaction, and skips an outcome
///   whose order already has one (a fill replayed after a restart, a cancel that lost the race),
///   so nothing is ever booked twice.
public protocol PaperLedgerStore: Sendable {
    /// Opens `account` with its opening entry, or answers the stored one (see the contract).
    func openPaperAccount(_ account: PaperAccount) async throws -> PaperAccount

    /// Every account, by name.
    func paperAccounts() async throws -> [PaperAccount]

    /// Places `order`, or answers the stored one with its outcome (see the contract).
    /// Throws ``PaperLedgerError/unknownAccount(_:)`` for an account not opened.
    func placePaperOrder(_ order: PaperOrder) async throws -> PaperOrderRecord

    /// Every order of `account` (every account when nil) with its outcome, in placing order.
    func paperOrders(account: String?) async throws -> [PaperOrderRecord]

    /// Orders without an outcome, in placing order.
    func openPaperOrders() async throws -> [PaperOrder]

    /// The postings of `account`, in booking order.
    func paperPostings(account: String) async throws -> [PaperPosting]

    /// Books each outcome once with its postings, and queues each notification to its sinks,
    /// all in one transaction. Answers the outcomes actually booked (not already present).
    func book(_ outcomes: [PaperOrderOutcome], notifications: [PaperFillNotice], now: Timestamp) async throws
        -> [PaperOrderOutcome]
}

/// A fill notification to queue with the fill that caused it.
public struct PaperFillNotice: Sendable, Hashable {
    public var notification: OutgoingNotification
    public var sinks: [String]

    public init(notification: OutgoingNotification, sinks: [String]) {
        self.notification = notification
        self.sinks = sinks
    }
}

/// Why the paper ledger refused an operation.
public enum PaperLedgerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name or id is taken by something different: what was stored.
    case conflict(String)
    case unknownAccount(String)
    case unknownOrder(String)

    public var description: String {
        switch self {
        case .conflict(let what): what
        case .unknownAccount(let name): "no paper account named \(name)"
        case .unknownOrder(let id): "no paper order with id \(id)"
        }
    }
}
