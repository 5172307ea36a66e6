/// The regular session a source's quotes were last seen in, and its open: the base of
/// `from = "open"` rules until the next session starts.
public struct SessionOpen: Sendable, Hashable {
    /// When the session opened.
    public var time: Timestamp
    /// The first quote's price at or after the open; nil when the engine joined the session
    /// under way and so does not know it (the rules wait for the next session).
    public var price: ExactDecimal?

    public init(time: Timestamp, price: ExactDecimal?) {
        self.time = time
        self.price = price
    }
}
