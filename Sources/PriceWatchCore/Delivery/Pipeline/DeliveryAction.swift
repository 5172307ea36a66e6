/// What an outbox pass decided for one sink's deliveries; the dispatcher carries it out.
public enum DeliveryAction: Sendable, Hashable {
    /// One attempt: a single delivery, or several alerts as one message. `released`: a
    /// group of alerts held for quiet hours, going out as they end.
    case attempt([Delivery], released: Bool)
    /// Never attempted: an operator's silence covers the alert now; recorded as silenced.
    case silence(Delivery, by: Silence)
    /// Held, still pending with no attempt counted, until `until` (the end of the sink's
    /// quiet hours `quiet`).
    case hold([Delivery], until: Timestamp, quiet: QuietHours)
}
