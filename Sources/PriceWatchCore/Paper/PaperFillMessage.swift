/// The notification of a fill (kind `fill`): what the account's sinks receive when the daemon
/// fills one of its orders.
public struct PaperFillMessage: NotificationContent {
    public static let kind = NotificationKind("fill")

    public var fill: PaperFill
    public var currency: String

    public init(fill: PaperFill, currency: String) {
        self.fill = fill
        self.currency = currency
    }

    /// The notification's stable id: `fill-ACCOUNT-ORDER`, the same on every replay.
    public var notificationID: String { "fill-\(fill.account)-\(fill.orderID)" }

    public func message() -> NotificationMessage {
        let money = { (value: ExactDecimal) in PaperFillDecision.money(value) }
        let title = "paper \(fill.account): \(fill.side == .buy ? "bought" : "sold") \(fill.quantity) \(fill.symbol) at \(fill.price)"
        let text = """
            Paper account \(fill.account) \(fill.side == .buy ? "bought" : "sold") \(fill.quantity) \(fill.symbol) \
            at \(fill.price) \(currency) (order \(fill.orderID)): value \(money(fill.notional)) \(currency), \
            fee \(money(fill.fee)) \(currency); quote of \(fill.quoteTime.rfc3339) from \(fill.provider).
            """
        return NotificationMessage(title: title, text: text)
    }
}
