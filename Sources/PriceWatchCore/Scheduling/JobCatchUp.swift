/// What a scheduled job does when the scheduler starts: the pure decision behind "a restart
/// neither repeats nor silently skips a job".
public enum JobCatchUp: Sendable, Hashable {
    /// Nothing was missed: wait for the first due time after `resumeAfter`.
    case wait(resumeAfter: Timestamp)
    /// A due time passed while the daemon was down, within the job's grace: run once now for
    /// it (several missed due times collapse into this one, the latest).
    case runNow(due: Timestamp)
    /// A due time passed while the daemon was down, beyond the job's grace: skip it (the
    /// scheduler logs it and records it as skipped), then wait for the next one.
    case skip(due: Timestamp)

    /// Decides for a job on `schedule` whose last record is `last` (nil: never seen) at `now`.
    ///
    /// - Parameter grace: how late a missed run may still start; nil: a missed run never does.
    public static func decide(schedule: any JobSchedule, last: JobRun?, grace: RuleDuration?, now: Timestamp) -> JobCatchUp {
        guard let last else { return .wait(resumeAfter: now) }
        guard schedule.nextDue(after: last.due) <= now, let missed = schedule.lastDue(atOrBefore: now), missed > last.due else {
            return .wait(resumeAfter: last.due)
        }
        if let grace, now.milliseconds - missed.milliseconds <= grace.seconds * 1000 { return .runNow(due: missed) }
        return .skip(due: missed)
    }
}
