/// A sink that also mirrors the daemon's state outside alerts: each watched symbol's last
/// price and each rule's state, for home automation (the `mqtt` sink, for Home Assistant).
///
/// Contract: every method returns at once (the work is queued on the sink's own thread, never
/// on the caller's), never throws, and repeats nothing: a value equal to the one last
/// published is not published again. What cannot be published now (no connection) is
/// published once the sink connects.
public protocol MarketStatePublisher: Sendable {
    /// The symbols and rules to announce (discovery); called after each poll with the current
    /// configuration's, so a reload's additions and removals follow.
    func watch(symbols: [String], rules: [String])
    /// The latest quote of each symbol in `quotes`.
    func publish(prices quotes: [Quote])
    /// Each rule's state: `true` when it has fired (for some symbol) and waits to re-arm.
    func publish(ruleStates: [String: Bool])
}
