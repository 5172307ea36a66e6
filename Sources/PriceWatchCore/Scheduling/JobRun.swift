/// The last thing that happened to a scheduled job: the due time it accounts for and how it
/// ended. The scheduler resumes after ``due``.
public struct JobRun: Sendable, Hashable {
    /// How the due time was dealt with.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// First seen: nothing ran; due times after ``JobRun/due`` are owed.
        case registered
        /// The job ran and finished.
        case succeeded
        /// The job ran and threw (logged; not retried before its next due time).
        case failed
        /// The due time was missed while the daemon was down, beyond the job's grace.
        case skipped
    }

    /// The job's name.
    public var job: String
    /// The due time this record accounts for (for ``Outcome/registered``, the first start).
    public var due: Timestamp
    public var outcome: Outcome
    /// When the run finished (wall clock); nil when nothing ran.
    public var finishedAt: Timestamp?
    /// The error of a failed run.
    public var error: String?

    public init(job: String, due: Timestamp, outcome: Outcome, finishedAt: Timestamp? = nil, error: String? = nil) {
        self.job = job
        self.due = due
        self.outcome = outcome
        self.finishedAt = finishedAt
        self.error = error
    }
}
