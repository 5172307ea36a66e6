import CSystemd
import Dispatch
import PriceWatchCore

/// The `desktop` sink: each alert as a desktop notification, through the freedesktop
/// `org.freedesktop.Notifications.Notify` call on the user's session D-Bus (for a daemon run
/// with `systemctl --user`), spoken with libsystemd's sd-bus.
///
/// An urgent rule's alert has urgency critical (2, which notification servers keep on screen),
/// others normal (1), digests and other messages low (0). sd-bus blocks, so every call runs on
/// a serial queue of the sink's own, never on Swift's cooperative pool; each delivery opens its
/// own connection (a session bus that went away with a logout is found again at the next one).
/// No session bus, or no notification server on it, is a retryable failure: the outbox tries
/// again until the user logs in; a call the server refuses as malformed is permanent.
public struct DesktopNotificationSink: NotificationSink {
    public let identity: String
    /// The bus address (`unix:path=/run/user/1000/bus`); nil: the user's session bus.
    let address: String?
    let appName: String
    let urgentRules: Set<String>
    /// How long to wait for the notification server's answer.
    let timeout: Duration

    private static let queue = DispatchQueue(label: "pricewatch.desktop-sink")

    public init(name: String, address: String?, appName: String = "pricewatch", urgentRules: Set<String> = [],
                timeout: Duration = .seconds(10)) {
        identity = "desktop/\(name)"
        self.address = address
        self.appName = appName
        self.urgentRules = urgentRules
        self.timeout = timeout
    }

    public func deliver(_ alert: Alert) async throws(SinkError) {
        let summary = "\(alert.symbol) \(alert.price.formatted(minimumFractionDigits: 2))\(alert.currency.map { " \($0)" } ?? "")"
        try await notify(summary: summary, body: alert.message, urgency: urgentRules.contains(alert.rule) ? 2 : 1)
    }

    public func deliver(_ notification: OutgoingNotification) async throws(SinkError) {
        switch notification.content {
        case .alert(let alert):
            try await deliver(alert)
        case .message(let message):
            try await notify(summary: message.title, body: message.text, urgency: 0)
        }
    }

    /// One Notify call on the sink's queue.
    func notify(summary: String, body: String, urgency: UInt8) async throws(SinkError) {
        let request = (address: address, app: appName, summary: ControlCharacters.escaped(summary), body: body,
                       urgency: urgency, microseconds: UInt64(timeout.components.seconds) * 1_000_000)
        let identity = identity
        let outcome: Result<UInt32, SinkError> = await withCheckedContinuation { continuation in
            Self.queue.async {
                continuation.resume(returning: Self.call(request.address, app: request.app, summary: request.summary,
                                                         body: request.body, urgency: request.urgency,
                                                         timeoutMicroseconds: request.microseconds, identity: identity))
            }
        }
        _ = try outcome.get()
    }

    /// The blocking part: connect, call, close.
    private static func call(_ address: String?, app: String, summary: String, body: String, urgency: UInt8,
                             timeoutMicroseconds: UInt64, identity: String) -> Result<UInt32, SinkError> {
        var bus: OpaquePointer?
        let opened = address.map { pw_bus_open(&bus, $0) } ?? pw_bus_open(&bus, nil)
        guard opened >= 0, let connection = bus else {
            return .failure(SinkError(retryable: true, "\(identity): cannot reach the session bus\(address.map { " at \($0)" } ?? ""): "
                                      + String(cString: strerror(-opened))))
        }
        defer { _ = sd_bus_flush_close_unref(connection) }
        var id: UInt32 = 0
        var error = [CChar](repeating: 0, count: 512)
        let result = pw_notify(connection, app, summary, body, urgency, "pricewatch.alert", -1, timeoutMicroseconds, &id,
                               &error, error.count)
        guard result >= 0 else {
            let said = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // A malformed call will never succeed; no server, no answer, or a bus that went away may.
            let permanent = said.hasPrefix("org.freedesktop.DBus.Error.InvalidArgs")
            return .failure(SinkError(retryable: !permanent, "\(identity): the notification server refused the call: \(ControlCharacters.escaped(said))"))
        }
        return .success(id)
    }
}
