/// Buy or sell.
public enum PaperSide: String, Sendable, Hashable, Codable {
    case buy
    case sell
}

/// An order of a paper account, as placed: never changed afterwards. What became of it is a
/// ``PaperOrderOutcome`` booked once.
public struct PaperOrder: Sendable, Hashable, Codable {
    /// The order id: client-supplied (`--order-id`) or generated; placing the same id again
    /// books nothing (idempotent).
    public var id: String
    public var account: String
    public var symbol: String
    public var side: PaperSide
    /// Units to trade; positive.
    public var quantity: ExactDecimal
    /// The worst acceptable price (a buy fills at or below it, a sell at or above); nil for a
    /// market order.
    public var limit: ExactDecimal?
    /// When the order was placed (wall clock): only quotes of later polls may fill it.
    public var placedAt: Timestamp

    public init(id: String, account: String, symbol: String, side: PaperSide, quantity: ExactDecimal,
                limit: ExactDecimal? = nil, placedAt: Timestamp) {
        self.id = id
        self.account = account
        self.symbol = symbol
        self.side = side
        self.quantity = quantity
        self.limit = limit
        self.placedAt = placedAt
    }

    /// Whether `other` places the same order (a retried command), ignoring the placing time.
    public func isSamePlacement(as other: PaperOrder) -> Bool {
        var other = other
        other.placedAt = placedAt
        return other == self
    }
}

/// What became of an order: booked once, never changed.
public enum PaperOrderOutcome: Sendable, Hashable {
    /// Filled: the fill moved cash and position.
    case filled(PaperFill)
    /// Rejected when a quote could have filled it: the reason (`insufficient cash: ...`).
    case rejected(account: String, orderID: String, reason: String, at: Timestamp)
    /// Cancelled by `pricewatch paper cancel` before it filled.
    case cancelled(account: String, orderID: String, at: Timestamp)

    public var orderID: String {
        switch self {
        case .filled(let fill): fill.orderID
        case .rejected(_, let id, _, _), .cancelled(_, let id, _): id
        }
    }

    public var account: String {
        switch self {
        case .filled(let fill): fill.account
        case .rejected(let account, _, _, _), .cancelled(let account, _, _): account
        }
    }

    /// The word the commands show: `filled`, `rejected`, `cancelled`.
    public var status: String {
        switch self {
        case .filled: "filled"
        case .rejected: "rejected"
        case .cancelled: "cancelled"
        }
    }
}

/// An order and what became of it (nil while it is open).
public struct PaperOrderRecord: Sendable, Hashable {
    public var order: PaperOrder
    public var outcome: PaperOrderOutcome?

    public init(order: PaperOrder, outcome: PaperOrderOutcome?) {
        self.order = order
        self.outcome = outcome
    }

    /// `open`, `filled`, `rejected` or `cancelled`.
    public var status: String { outcome?.status ?? "open" }
}
