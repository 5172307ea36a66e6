/// The scheduled-jobs role of the store: the last run of each named job, so a restart neither
/// repeats a job nor silently skips one.
public protocol JobRunStore: Sendable {
    /// The last recorded run of every job, by job name.
    func jobRuns() async throws -> [String: JobRun]

    /// Records `run` as the last run of its job, replacing the one before.
    func recordJobRun(_ run: JobRun) async throws
}
