import Logging
import PriceWatchCore

/// Runs named jobs at calendar times (``CalendarSchedule``), each in its own loop, and
/// persists the last run of each in the store so a restart neither repeats nor silently
/// skips one.
///
/// - At start each job follows ``JobCatchUp``: a job never seen is registered and waits for
///   its first due time; a due time missed while the daemon was down runs once at once when
///   it is within the job's grace, else it is skipped with a log line.
/// - A run is recorded after it finishes (succeeded or failed): a crash or shutdown during a
///   run leaves the due time owed, so it runs again at the next start (within the grace).
/// - A failed run is logged and recorded, never retried before the next due time, and never
///   affects another job or service.
/// - While running, the scheduler sleeps on `clock` in steps of at most a minute and reads the
///   wall clock after each, so a wall-clock step is noticed within a minute. A run that wakes
///   long after its due time (a suspended machine: later than the job's grace and than
///   ``lateRunTolerance``) is skipped with a log line, as at start; several due times passed
///   at once collapse into one run for the latest.
public struct JobScheduler<C: Clock<Duration>>: Sendable {
    /// How late a due time may still run while the daemon is up, whatever the job's grace.
    public static var lateRunTolerance: RuleDuration { RuleDuration(seconds: 300)! }

    private let jobs: [ScheduledJob]
    private let store: any JobRunStore
    private let clock: C
    private let wallClock: @Sendable () -> Timestamp
    private let logger: Logger
    private let maximumSleep: Duration

    /// - Parameter maximumSleep: the longest sleep on `clock` before the wall clock is read
    ///   again (a wall-clock step is noticed within it).
    public init(jobs: [ScheduledJob], store: any JobRunStore, clock: C,
                wallClock: @escaping @Sendable () -> Timestamp, logger: Logger, maximumSleep: Duration = .seconds(60)) {
        self.maximumSleep = maximumSleep
        self.jobs = jobs
        self.store = store
        self.clock = clock
        self.wallClock = wallClock
        self.logger = logger
    }

    /// Runs every job until the task is cancelled.
    public func run() async {
        let records: [String: JobRun]?
        do {
            records = try await store.jobRuns()
        } catch {
            // Without the records no run can be told owed: wait for the next due times and do
            // not overwrite the records (they may be read again at the next start).
            logger.error("could not read the last runs of scheduled jobs: \(error); every job waits for its next due time")
            records = nil
        }
        await withDiscardingTaskGroup { group in
            for job in jobs {
                let last = records?[job.name]
                let recordsKnown = records != nil
                group.addTask { await runLoop(job, last: last, recordsKnown: recordsKnown) }
            }
        }
    }

    private func runLoop(_ job: ScheduledJob, last: JobRun?, recordsKnown: Bool) async {
        let metadata: Logger.Metadata = ["job": "\(job.name)"]
        let now = wallClock()
        var after: Timestamp
        switch JobCatchUp.decide(schedule: job.schedule, last: recordsKnown ? last : nil, grace: job.grace, now: now) {
        case .wait(let resumeAfter):
            after = resumeAfter
            if last == nil && recordsKnown {
                await record(JobRun(job: job.name, due: now, outcome: .registered), metadata: metadata)
            }
        case .runNow(let due):
            logger.notice("job '\(job.name)' was due at \(due) while pricewatch was down; running it now, within its grace of \(Self.text(job.grace))", metadata: metadata)
            await execute(job, due: due, metadata: metadata)
            after = due
        case .skip(let due):
            logger.warning("job '\(job.name)' was due at \(due) while pricewatch was down; skipped: that is beyond its grace of \(Self.text(job.grace)); next run on schedule (\(job.schedule))", metadata: metadata)
            await record(JobRun(job: job.name, due: due, outcome: .skipped), metadata: metadata)
            after = due
        }
        logger.debug("job '\(job.name)' scheduled (\(job.schedule)), next due at \(job.schedule.nextDue(after: after))", metadata: metadata)
        while !Task.isCancelled {
            let due = job.schedule.nextDue(after: after)
            guard await sleep(untilWall: due) else { return }
            let now = wallClock()
            let latest = max(job.schedule.lastDue(atOrBefore: now) ?? due, due)
            let tolerance = max(job.grace ?? Self.lateRunTolerance, Self.lateRunTolerance)
            if now.milliseconds - latest.milliseconds > tolerance.seconds * 1000 {
                logger.warning("job '\(job.name)' woke at \(now), later than \(tolerance) after its due time \(latest) (the machine slept or the clock stepped); skipped", metadata: metadata)
                await record(JobRun(job: job.name, due: latest, outcome: .skipped), metadata: metadata)
            } else {
                if latest != due {
                    logger.warning("job '\(job.name)' woke at \(now), after several due times (from \(due) to \(latest)); running it once, for \(latest)", metadata: metadata)
                }
                await execute(job, due: latest, metadata: metadata)
            }
            after = latest
        }
    }

    /// Sleeps until the wall clock reaches `due`; false when cancelled.
    private func sleep(untilWall due: Timestamp) async -> Bool {
        while !Task.isCancelled {
            let wait = due.milliseconds - wallClock().milliseconds
            if wait <= 0 { return true }
            do {
                try await clock.sleep(until: clock.now.advanced(by: min(.milliseconds(wait), maximumSleep)), tolerance: nil)
            } catch {
                return false
            }
        }
        return false
    }

    private func execute(_ job: ScheduledJob, due: Timestamp, metadata: Logger.Metadata) async {
        logger.debug("job '\(job.name)' started for \(due)", metadata: metadata)
        let run: JobRun
        do {
            try await job.action(due)
            run = JobRun(job: job.name, due: due, outcome: .succeeded, finishedAt: wallClock())
            logger.info("job '\(job.name)' finished", metadata: metadata)
        } catch {
            // Stopped by shutdown: the due time stays owed and runs at the next start.
            if Task.isCancelled { return }
            logger.error("job '\(job.name)' failed: \(error); next run on schedule (\(job.schedule))", metadata: metadata)
            run = JobRun(job: job.name, due: due, outcome: .failed, finishedAt: wallClock(), error: "\(error)")
        }
        await record(run, metadata: metadata)
    }

    private func record(_ run: JobRun, metadata: Logger.Metadata) async {
        let store = self.store
        // Not cancelled with the caller: a run that finished is recorded even during shutdown.
        let result = await Task { () -> (any Error)? in
            do {
                try await store.recordJobRun(run)
                return nil
            } catch {
                return error
            }
        }.value
        if let result {
            logger.error("could not record the run of job '\(run.job)' due at \(run.due): \(result)", metadata: metadata)
        }
    }

    private static func text(_ grace: RuleDuration?) -> String { grace.map { "\($0)" } ?? "none" }
}
