/// The silences the delivery path consults: a pure lookup from an alert and a time to the
/// silence that holds it back, if any.
///
/// Built from the store's silences (active or not); matching never reads the store or a clock.
/// When several silences cover an alert, the one ending last is reported (it decides when
/// delivery would resume), ties broken by id.
public struct SilenceSet: Sendable, Hashable {
    public let silences: [Silence]

    public init(_ silences: [Silence] = []) {
        self.silences = silences.sorted { ($0.endsAt, $0.id) > ($1.endsAt, $1.id) }
    }

    /// No silence at all.
    public static let empty = SilenceSet()

    public var isEmpty: Bool { silences.isEmpty }

    /// The silence in force at `time` that covers `alert`, or nil when it may be delivered.
    public func silence(for alert: Alert, at time: Timestamp) -> Silence? {
        silences.first { $0.isActive(at: time) && $0.matches(alert) }
    }

    /// The silence in force at `time` that covers `notification`: only alerts are silenced;
    /// test notifications, digests and reports are not.
    public func silence(for notification: OutgoingNotification, at time: Timestamp) -> Silence? {
        guard notification.kind == .alert, let alert = notification.alert else { return nil }
        return silence(for: alert, at: time)
    }
}
