/// A message relayed from outside (a TradingView alert's webhook body), as a notification of
/// kind `external`: its text is the body as received, so every sink renders it as it renders
/// any message notification (a digest's path).
///
/// A JSON body is kept as JSON: it is also the message's `data`, which plain webhooks carry
/// as a JSON value. A text body's control characters other than line breaks are escaped
/// (``ControlCharacters``), so a message cannot forge lines or terminal sequences where it is
/// shown.
public struct ExternalMessage: NotificationContent, Hashable {
    public static let kind = NotificationKind.external

    /// The route it came through (`tradingview`).
    public var route: String
    /// The title sinks show.
    public var title: String
    /// The body as received (valid UTF-8).
    public var body: String
    /// Whether the body is a JSON document (checked by the receiver).
    public var isJSON: Bool

    public init(route: String, title: String, body: String, isJSON: Bool) {
        self.route = route
        self.title = title
        self.body = body
        self.isJSON = isJSON
    }

    public func message() -> NotificationMessage {
        NotificationMessage(title: title, text: isJSON ? body : Self.shown(body), data: isJSON ? body : nil)
    }

    /// `text` with its lines kept and every other control character escaped (a CR before a
    /// line feed is dropped: the same line break written the Windows way).
    static func shown(_ text: String) -> String {
        // By scalars: "\r\n" is one Character, which splitting on "\n" would not cut.
        var lines: [String] = []
        var line = String.UnicodeScalarView()
        var pendingReturn = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                lines.append(ControlCharacters.escaped(String(line)))
                line = String.UnicodeScalarView()
                pendingReturn = false
                continue
            }
            if pendingReturn { line.append("\r") }
            pendingReturn = scalar == "\r"
            if !pendingReturn { line.append(scalar) }
        }
        if pendingReturn { line.append("\r") }
        lines.append(ControlCharacters.escaped(String(line)))
        return lines.joined(separator: "\n")
    }

    /// The notification's id: the same for a client's retry of one message. With an
    /// `Idempotency-Key`, the route and that key; without one, the route, the body and the
    /// minute (UTC) it was received in, so a retry within the same minute is one notification.
    public static func notificationID(route: String, body: String, receivedAt: Timestamp, idempotencyKey: String?) -> String {
        if let idempotencyKey {
            return NotificationID.make(kind: kind, parts: [route, "key", idempotencyKey])
        }
        let minute = receivedAt.milliseconds - receivedAt.milliseconds % 60_000
        return NotificationID.make(kind: kind, parts: [route, "body", String(minute), body])
    }
}
