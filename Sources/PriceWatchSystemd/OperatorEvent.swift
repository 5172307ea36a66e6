import Logging

/// The events an operator searches the journal for, each with its fixed journal `MESSAGE_ID`
/// (`journalctl MESSAGE_ID=...`). This is the only place the ids are defined; the README
/// lists them.
///
/// A log call marks its event with the `event` metadata key:
///
///     logger.notice("alert fired: ...", metadata: ["event": "\(OperatorEvent.alertFired)", ...])
///
/// On standard error the key shows as `event=alert-fired`; in the journal it becomes
/// `MESSAGE_ID=...` plus `PRICEWATCH_EVENT=alert-fired`.
public enum OperatorEvent: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A rule fired an alert (it is in the outbox).
    case alertFired = "alert-fired"
    /// A delivery failed permanently or for too long and went to the dead letters.
    case deliveryDeadLettered = "delivery-dead-lettered"
    /// SIGHUP: the new configuration is running.
    case configurationReloaded = "configuration-reloaded"
    /// The configuration is invalid: at start (exit 78) or on SIGHUP (the running one stays).
    case configurationRejected = "configuration-rejected"
    /// A provider's fetch failed (the poll goes on with what it has).
    case providerFailing = "provider-failing"
    /// A provider has not finished a poll within its progress window; watchdog pings stop,
    /// so systemd restarts the service.
    case schedulerStalled = "scheduler-stalled"

    /// The metadata key log calls use to name their event.
    public static let metadataKey = "event"

    /// The journal's `MESSAGE_ID`: 128 bits as 32 lower-case hex digits, fixed forever.
    public var messageID: String {
        switch self {
        case .alertFired: "5543079bbf4649709b214a9d0111fad7"
        case .deliveryDeadLettered: "27811feb625046b8896d6b338066355f"
        case .configurationReloaded: "945e35f766c747f6bea7da72ca183a40"
        case .configurationRejected: "24a3a6bebcb84725afdf71bba4a9cbe9"
        case .providerFailing: "98be351dce404f41b42930e9ce3cea5d"
        case .schedulerStalled: "98f75738213248518979902d3cb273e1"
        }
    }

    public var description: String { rawValue }

    /// The value to log under ``metadataKey``.
    public var metadataValue: Logger.MetadataValue { .string(rawValue) }
}
