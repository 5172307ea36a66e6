/// The notification of a calendar rule (kind `event`): a reminder of an earnings report, an
/// ex-dividend day or a dividend payment.
public struct CompanyEventNotification: NotificationContent {
    public static let kind = NotificationKind("event")

    public var event: CompanyEvent
    /// The rule that asked for it.
    public var rule: String

    public init(event: CompanyEvent, rule: String) {
        self.event = event
        self.rule = rule
    }

    /// Stable per rule and event: a restart, or a changed estimate, queues nothing twice; a
    /// moved date is another event, so another notification.
    public var notificationID: String { NotificationID.make(kind: Self.kind, parts: [rule, event.id]) }

    public func message() -> NotificationMessage {
        let title = "\(event.symbol): " + event.text.prefix(1).uppercased() + event.text.dropFirst()
        let text = "\(title)\nsource: \(event.source), rule \(rule)"
        return NotificationMessage(title: title, text: text, data: event.json(rule: rule))
    }
}
