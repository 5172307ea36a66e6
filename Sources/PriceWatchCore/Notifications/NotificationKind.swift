/// The kind of a ``OutgoingNotification``: an open set of short names (`alert`, `digest`, `report`,
/// `test`, `external`, `news`; features add their own, e.g. `fill`). The webhook payload of a non-alert
/// notification carries it as `kind`.
public struct NotificationKind: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public init(_ name: String) { self.rawValue = name }

    /// A rule fired.
    public static let alert = NotificationKind("alert")
    /// A scheduled summary (of prices, alerts, a portfolio).
    public static let digest = NotificationKind("digest")
    /// A report asked for or scheduled.
    public static let report = NotificationKind("report")
    /// What `pricewatch notify-test` sends.
    public static let test = NotificationKind("test")
    /// A message relayed from outside (`POST /api/ingest/tradingview`, ``ExternalMessage``).
    public static let external = NotificationKind("external")
    /// A new headline for a news rule (``NewsNotification``).
    public static let news = NotificationKind("news")

    public var description: String { rawValue }
}
