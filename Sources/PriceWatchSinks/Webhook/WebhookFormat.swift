import PriceWatchCore

/// The shape of the webhook sink's request (`format` in `[sinks.NAME]`): pricewatch's own
/// versioned JSON payload, or the format of a chat or push service.
public enum WebhookFormat: String, Sendable, CaseIterable {
    /// ``WebhookPayload``: `{"version":1,"type":"alert.fired",…}` (the default).
    case json
    /// ``SlackPayload``: a Slack incoming webhook's `{"text":…}`.
    case slack
    /// ``DiscordPayload``: a Discord webhook's `{"content":…}`.
    case discord
    /// ``NtfyPayload``: an ntfy topic URL, the message as the body, `Title`/`Tags`/`Priority`.
    case ntfy

    /// The body and headers this format sends for `alert`.
    public func content(for alert: Alert) -> WebhookContent {
        switch self {
        case .json: WebhookPayload.content(for: alert)
        case .slack: SlackPayload.content(for: alert)
        case .discord: DiscordPayload.content(for: alert)
        case .ntfy: NtfyPayload.content(for: alert)
        }
    }

    /// The body and headers this format sends for a notification of any kind: an alert-shaped
    /// one exactly as ``content(for:)-(Alert)``; a message as pricewatch's notification
    /// payload (with `kind`), or the chat formats' title and text.
    public func content(for notification: OutgoingNotification) -> WebhookContent {
        guard case .message(let message) = notification.content else {
            return notification.alert.map { content(for: $0) } ?? .json("{}")
        }
        let text = message.text.isEmpty ? message.title : message.title + "\n" + message.text
        if let sections = message.sections, !sections.isEmpty {
            switch self {
            case .slack: return .json(SlackPayload.json(message: message, sections: sections))
            case .discord: return DiscordPayload.content(for: notification, message: message, sections: sections)
            case .json, .ntfy: break
            }
        }
        switch self {
        case .json: return .json(WebhookPayload.json(for: notification, message: message))
        case .slack: return .json(SlackPayload.json(text: text))
        case .discord: return .json(DiscordPayload.json(text: text))
        case .ntfy: return NtfyPayload.content(for: notification, message: message)
        }
    }

    /// The most UTF-16 code units one message of this format may carry, `nil` when unlimited.
    var maximumMessageLength: Int? {
        switch self {
        case .discord: DiscordPayload.maximumLength
        // Slack cuts `text` after 40,000 characters.
        case .slack: 40_000
        case .json, .ntfy: nil
        }
    }

    /// `alerts` split, in order, into groups whose messages joined one per line fit
    /// ``maximumMessageLength``; a message too long on its own is a group of one (cut as a
    /// single alert is). One group when the format has no limit.
    func parts(of alerts: [Alert]) -> [[Alert]] {
        guard let limit = maximumMessageLength else { return alerts.isEmpty ? [] : [alerts] }
        var parts: [[Alert]] = []
        var current: [Alert] = []
        var length = 0
        for alert in alerts {
            let size = alert.message.utf16.count
            if !current.isEmpty && length + 1 + size > limit {
                parts.append(current)
                current = []
                length = 0
            }
            length += current.isEmpty ? size : 1 + size
            current.append(alert)
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }

    /// The body and headers this format sends for a group of two or more alerts (oldest
    /// first) delivered as one message; `groupID` is the group's `webhook-id`.
    public func content(for alerts: [Alert], groupID: String) -> WebhookContent {
        switch self {
        case .json: .json(WebhookPayload.json(for: alerts, groupID: groupID))
        case .slack: .json(SlackPayload.json(text: alerts.map(\.message).joined(separator: "\n")))
        case .discord: .json(DiscordPayload.json(text: alerts.map(\.message).joined(separator: "\n")))
        case .ntfy: NtfyPayload.content(for: alerts)
        }
    }
}
