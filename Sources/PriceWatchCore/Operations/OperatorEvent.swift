/// The events an operator searches the logs for. This is the only place the events are
/// defined; the systemd adapter maps each to its fixed journal `MESSAGE_ID`
/// (`journalctl MESSAGE_ID=...`), and `docs/operations.md` lists them.
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

    public var description: String { rawValue }
}
