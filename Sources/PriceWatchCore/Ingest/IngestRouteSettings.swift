/// One inbound relay route of the main file (`[ingest.tradingview]`, docs/http.md, "Relaying
/// TradingView alerts"): where the messages posted to `/api/ingest/NAME` go.
public struct IngestRouteSettings: Sendable, Hashable {
    /// The routes the endpoint knows, by the name in `[ingest.NAME]` and the URL path.
    public static let knownRoutes = ["tradingview"]
    /// `title` when not given, per route.
    public static func defaultTitle(route: String) -> String {
        route == "tradingview" ? "TradingView alert" : "\(route) message"
    }

    /// The route's name: `tradingview`.
    public var name: String
    /// The sinks every relayed message goes to.
    public var notify: [String]
    /// The title sinks show (an email's subject, a chat message's first line).
    public var title: String

    public init(name: String, notify: [String], title: String? = nil) {
        self.name = name
        self.notify = notify
        self.title = title ?? Self.defaultTitle(route: name)
    }
}
