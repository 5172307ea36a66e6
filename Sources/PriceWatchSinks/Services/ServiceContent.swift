import PriceWatchCore

/// What a chat or push service shows of a notification: a title, a plain text, whether it is
/// urgent, and the alert it is about (for a chart). The services' own shapes (Telegram's HTML,
/// Pushover's form, Gotify's markdown, Matrix's event) are built from it.
struct ServiceContent: Sendable, Hashable {
    /// One line: `AAPL fall 3% from previous close`, a digest's title, `3 alerts: AAPL, MSFT`.
    var title: String
    /// The alert's rendered message, a digest's text, one line per alert of a group.
    var lines: [String]
    /// Whether the rule is `urgent = true` (Pushover's and Gotify's higher priority, a
    /// Telegram message that is never silent, Matrix's `m.text`).
    var isUrgent: Bool
    /// The single alert it shows, for a chart.
    var alert: Alert?
    /// A group of alerts: its lines are alerts, and a cut says how many were left out.
    var isGroup = false
    /// The pictures a message carries (a digest's charts), in order; an alert's chart is drawn
    /// by the sink, not carried.
    var images: [NotificationAttachment] = []

    /// A single alert (or the test alert of `notify-test`).
    init(_ alert: Alert, urgentRules: Set<String>) {
        title = Self.title(of: alert)
        lines = alert.message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        isUrgent = urgentRules.contains(alert.rule)
        self.alert = alert
    }

    /// A group of alerts as one message: one line per alert, urgent when any of them is.
    init(_ alerts: [Alert], urgentRules: Set<String>) {
        var symbols: [String] = []
        for alert in alerts where !symbols.contains(alert.symbol) { symbols.append(alert.symbol) }
        title = "\(alerts.count) alerts: " + symbols.joined(separator: ", ")
        lines = alerts.map { $0.message.replacing("\n", with: " ") }
        isUrgent = alerts.contains { urgentRules.contains($0.rule) }
        alert = nil
        isGroup = true
    }

    /// Any notification: an alert-shaped one as ``init(_:urgentRules:)-(Alert,_)``, a message
    /// with its title, text and pictures (never urgent).
    init(_ notification: OutgoingNotification, urgentRules: Set<String>) {
        switch notification.content {
        case .alert(let alert):
            self.init(alert, urgentRules: urgentRules)
        case .message(let message):
            self.init(title: message.title,
                      lines: message.text.isEmpty ? [] : message.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            images = message.attachments.filter { $0.contentType.hasPrefix("image/") }
        }
    }

    /// A message that is not about an alert (never urgent).
    init(title: String, lines: [String]) {
        self.title = title
        self.lines = lines
        isUrgent = false
        alert = nil
    }

    /// `AAPL fall 3% from previous close`, `BTC-USD crosses 100000 (up)`.
    static func title(of alert: Alert) -> String {
        "\(alert.symbol) \(alert.placeholderValue(.condition) ?? alert.condition)"
    }

    /// The text as one string.
    var text: String { lines.joined(separator: "\n") }

    /// The text cut to `limit` (``ServiceText/length(_:)``): a group keeps whole lines and says
    /// how many alerts it left out; anything else is cut at a character with `…`.
    func text(fitting limit: Int) -> String {
        isGroup ? ServiceText.lines(lines, fitting: limit) : ServiceText.cut(text, to: limit)
    }
}
