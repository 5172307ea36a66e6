import PriceWatchCore

/// The scheduler's part of a reload: the jobs of the setup that runs after it (digests
/// added, rescheduled or removed by `SIGHUP`), handed to ``JobScheduler/replaceJobs(_:)`` in
/// the resume phase, so a refused configuration changes no job.
public struct ScheduledJobsSubscriber<C: Clock<Duration>>: ConfigurationSubscriber {
    let scheduler: JobScheduler<C>
    let jobs: @Sendable (ServiceSetup) -> [ScheduledJob]

    /// - Parameter jobs: every job a setup runs, the fixed ones included.
    public init(scheduler: JobScheduler<C>, jobs: @escaping @Sendable (ServiceSetup) -> [ScheduledJob]) {
        self.scheduler = scheduler
        self.jobs = jobs
    }

    public func apply(_ setup: ServiceSetup, now: Timestamp) async throws {}

    public func resume(with setup: ServiceSetup) async {
        await scheduler.replaceJobs(jobs(setup))
    }
}
