/// A kind of notification other than an alert: a type that names its kind and renders itself
/// as a ``NotificationMessage``. Digests, reports and the notifications of later features
/// conform; ``OutgoingNotification/init(id:time:content:)`` turns a value into a notification for the
/// outbox. Adding a kind is adding a conforming type: the outbox, the store and every sink
/// carry it unchanged.
public protocol NotificationContent: Sendable {
    /// The kind every value of this type has.
    static var kind: NotificationKind { get }
    /// The title, text, HTML and attachments sinks show.
    func message() -> NotificationMessage
}
