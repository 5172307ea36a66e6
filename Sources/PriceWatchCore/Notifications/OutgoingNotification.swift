/// Something the outbox delivers to sinks: an alert, a digest, a report, a test message, or a
/// kind a later feature adds.
///
/// Every notification has the guarantees alerts have: a stable ``id`` (retries, restarts and
/// replays carry the same one, so receivers can deduplicate; a webhook signs it), delivery at
/// least once from the durable outbox with retries and a dead letter. Only alerts are grouped
/// (`group_wait`); every other kind goes alone.
///
/// The content is either an ``Alert`` (kind ``NotificationKind/alert``, and the labelled test
/// alert of `pricewatch notify-test`, kind ``NotificationKind/test``), which sinks render
/// exactly as alerts; or a ``NotificationMessage`` (title, text, optional HTML and
/// attachments) that any kind can carry: a new kind is a new ``NotificationContent`` type,
/// with no change to the outbox or the sinks.
public struct OutgoingNotification: Sendable, Hashable {
    /// What the notification carries.
    public enum Content: Sendable, Hashable {
        /// An alert, rendered as alerts are.
        case alert(Alert)
        /// A titled message (digests, reports, and any kind added later).
        case message(NotificationMessage)
    }

    /// Stable: the same notification always has the same id (``NotificationID``).
    public var id: String
    public var kind: NotificationKind
    /// The time the notification is about: an alert's quote time, a digest's due time.
    public var time: Timestamp
    public var content: Content

    public init(id: String, kind: NotificationKind, time: Timestamp, content: Content) {
        self.id = id
        self.kind = kind
        self.time = time
        self.content = content
    }

    /// An alert as a notification: kind `alert`, the alert's id and quote time.
    public init(_ alert: Alert) {
        self.init(id: alert.id, kind: .alert, time: alert.time, content: .alert(alert))
    }

    /// A notification of `content`'s kind, rendered now.
    public init(id: String, time: Timestamp, content: some NotificationContent) {
        self.init(id: id, kind: type(of: content).kind, time: time, content: .message(content.message()))
    }

    /// The alert it carries, if it carries one.
    public var alert: Alert? {
        if case .alert(let alert) = content { return alert }
        return nil
    }

    /// The message it carries, if it is not alert-shaped.
    public var message: NotificationMessage? {
        if case .message(let message) = content { return message }
        return nil
    }

    /// One line for people: the alert's message, or the message's title.
    public var summary: String {
        switch content {
        case .alert(let alert): alert.message
        case .message(let message): message.title
        }
    }
}
