/// When a scheduled job is due: wall-clock times of a calendar (``CalendarSchedule``) or the
/// closes of a market (``MarketCloseSchedule``).
///
/// The contract: ``nextDue(after:)`` is strictly after its argument and never reads a clock;
/// ``lastDue(atOrBefore:)`` is the latest due time at or before its argument within the last
/// week or so (nil: none), consistent with ``nextDue(after:)``. The description is what logs
/// show (`daily 08:00 UTC`, `on close of XNYS`).
public protocol JobSchedule: Sendable, CustomStringConvertible {
    func nextDue(after instant: Timestamp) -> Timestamp
    func lastDue(atOrBefore instant: Timestamp) -> Timestamp?
}

extension CalendarSchedule: JobSchedule {}
