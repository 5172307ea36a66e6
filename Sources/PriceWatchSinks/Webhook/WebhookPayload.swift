import PriceWatchCore

/// pricewatch's own webhook payload (`format = "json"`), version 1: one JSON object per
/// alert with every field of `docs/rules.md`'s alerts, documented in docs/configuration.md ("Webhook").
///
/// ```json
/// {"version":1,"type":"alert.fired","id":"3f2a…","rule":"aapl-200","symbol":"AAPL",
///  "condition":"above 200","direction":null,"price":226.78,"currency":"USD",
///  "time":"2024-10-02T14:31:00Z","base":null,"change":null,"provider":"yahoo",
///  "message":"AAPL 226.78 USD: above 200 (rule aapl-200)"}
/// ```
///
/// Every key is always present, in this order; a value that is unknown is `null`. Numbers
/// are plain decimals (`226.78`, never an exponent), exact as the engine computed them;
/// `time` is the quote time in RFC 3339 UTC. A later incompatible change bumps `version`;
/// new keys may be added without bumping it, so receivers should ignore keys they do not know.
public enum WebhookPayload {
    /// The payload version this build sends.
    public static let version = 1
    /// The event type of a fired alert.
    public static let alertFired = "alert.fired"

    /// The JSON text for `alert`.
    public static func json(for alert: Alert) -> String {
        var json = JSONWriter()
        json.integer("version", version)
        json.string("type", alertFired)
        json.string("id", alert.id)
        json.string("rule", alert.rule)
        json.string("symbol", alert.symbol)
        json.string("condition", alert.condition)
        json.string("direction", alert.direction)
        json.number("price", alert.price)
        json.string("currency", alert.currency)
        json.time("time", alert.time)
        json.number("base", alert.base)
        json.number("change", alert.change)
        json.string("provider", alert.provider)
        json.string("message", alert.message)
        return json.result
    }

    /// The event type of a group of alerts delivered as one request (`group_wait`).
    public static let alertsFired = "alerts.fired"

    /// The JSON text for a group: `{"version":1,"type":"alerts.fired","id":GROUP,"count":N,
    /// "alerts":[…]}`, each element exactly the single-alert payload, oldest first.
    public static func json(for alerts: [Alert], groupID: String) -> String {
        var json = JSONWriter()
        json.integer("version", version)
        json.string("type", alertsFired)
        json.string("id", groupID)
        json.integer("count", alerts.count)
        let head = String(json.result.dropLast())   // the object so far, without its closing brace
        return head + ",\"alerts\":[" + alerts.map(Self.json(for:)).joined(separator: ",") + "]}"
    }

    static func content(for alert: Alert) -> WebhookContent { .json(json(for: alert)) }

    /// The event type of a notification that is not an alert (its `kind` says which).
    public static let notificationSent = "notification"

    /// The JSON text for a notification that is not alert-shaped (a digest, a report, a kind
    /// added later):
    ///
    /// ```json
    /// {"version":1,"type":"notification","kind":"digest","id":"…","time":"2024-10-02T07:00:00Z",
    ///  "title":"Morning digest","text":"…","html":null,
    ///  "attachments":[{"filename":"chart.png","content_type":"image/png","size":1234,"content":"iVBORw0…"}]}
    /// ```
    ///
    /// Every key is always present, in this order (`html` null, `attachments` empty when the
    /// kind has none); `content` is the file in base64. Alerts keep their own payload above,
    /// byte for byte, without `kind`.
    public static func json(for notification: OutgoingNotification, message: NotificationMessage) -> String {
        var json = JSONWriter()
        json.integer("version", version)
        json.string("type", notificationSent)
        json.string("kind", notification.kind.rawValue)
        json.string("id", notification.id)
        json.time("time", notification.time)
        json.string("title", message.title)
        json.string("text", message.text)
        json.string("html", message.html)
        if let data = message.data { json.raw("data", data) }
        json.objects("attachments", message.attachments.map { attachment in
            var item = JSONWriter()
            item.string("filename", attachment.filename)
            item.string("content_type", attachment.contentType)
            item.integer("size", attachment.bytes.count)
            item.string("content", attachment.base64)
            return item.result
        })
        return json.result
    }
}
