/// The keys every `[sinks.NAME]` table has; each type's own keys are its schema's
/// (`AdapterSchema`, declared beside the sink and passed in from the adapter catalog).
enum SinkTypes {
    /// Keys every sink accepts, whatever its type: `type`, and the delivery settings
    /// `max_age` (give up retrying after this long, default 24h), `group_wait` (send alerts
    /// queued within this long of the first as one message; default: no grouping) and
    /// `concurrency` (deliveries in flight at once, default 4), and `quiet` with
    /// `quiet_timezone` (quiet hours: a daily window during which its notifications are held),
    /// and `rate_limit` (at most so many attempts in a window, `"20/min"`, or `"off"`).
    static let commonKeys = ["type", "max_age", "group_wait", "concurrency", "quiet", "quiet_timezone", "rate_limit"]

    /// The most deliveries a sink may have in flight (`concurrency`).
    static let maximumConcurrency = 64
}
