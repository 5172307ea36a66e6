import Logging
import PriceWatchCore
import Synchronization

/// Runs named jobs at calendar times (``CalendarSchedule``), each in its own loop, and
/// persists the last run of each in the store so a restart neither repeats nor silently
/// skips one.
///
/// - At start each job follows ``JobCatchUp``: a job never seen is registered and waits for
///   its first due time; a due time missed while the daemon was down runs once at once when
///   it is within the job's grace, else it is skipped with a log line. A job that
///   ``ScheduledJob/runsAtStart`` runs once at start instead (and when a reload adds it).
/// - A run is recorded after it finishes (succeeded or failed): a crash or shutdown during a
///   run leaves the due time owed, so it runs again at the next start (within the grace).
/// - A failed run is logged and recorded, never retried before the next due time, and never
///   affects another job or service.
/// - While running, the scheduler sleeps on `clock` in steps of at most a minute and reads the
///   wall clock after each, so a wall-clock step is noticed within a minute. A run that wakes
///   long after its due time (a suspended machine: later than the job's grace and than
///   ``lateRunTolerance``) is skipped with a log line, as at start; several due times passed
///   at once collapse into one run for the latest.
public final class JobScheduler<C: Clock<Duration>>: Sendable {
    /// How late a due time may still run while the daemon is up, whatever the job's grace.
    public static var lateRunTolerance: RuleDuration { RuleDuration(seconds: 300)! }

    /// One job's loop: its task, and whether it was told to stop after its current run.
    private final class Loop: Sendable {
        let job: ScheduledJob
        private struct State {
            var task: Task<Void, Never>?
            var retired = false
            var executing = false
        }
        private let state = Mutex(State())

        init(job: ScheduledJob) {
            self.job = job
        }

        var signature: String { JobScheduler.signature(of: job) }

        func attach(_ task: Task<Void, Never>) { state.withLock { $0.task = task } }

        var task: Task<Void, Never>? { state.withLock { $0.task } }

        /// Stops the loop: at once while it waits, after its run while it runs.
        func retire() {
            let task: Task<Void, Never>? = state.withLock { state in
                state.retired = true
                return state.executing ? nil : state.task
            }
            task?.cancel()
        }

        /// Marks a run as started; false when the loop was retired.
        func beginRun() -> Bool {
            state.withLock { state in
                guard !state.retired else { return false }
                state.executing = true
                return true
            }
        }

        /// Marks the run as finished; false when the loop was retired meanwhile.
        func endRun() -> Bool {
            state.withLock { state in
                state.executing = false
                return !state.retired
            }
        }
    }

    private struct State {
        /// The jobs to start when ``run()`` begins (set by a reload before it).
        var jobs: [ScheduledJob]
        var loops: [String: Loop] = [:]
        /// Loops a reload retired that have not ended yet (one finishing its run).
        var retiring: [ObjectIdentifier: Loop] = [:]
        var started = false
        var stopped = false
    }

    private let state: Mutex<State>
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
        self.state = Mutex(State(jobs: jobs))
        self.store = store
        self.clock = clock
        self.wallClock = wallClock
        self.logger = logger
    }

    /// The names of the jobs it runs now, sorted.
    public var jobNames: [String] {
        state.withLock { state in state.started ? state.loops.keys.sorted() : state.jobs.map(\.name).sorted() }
    }

    /// Runs every job until the task is cancelled (then ends every job's loop, a run in
    /// progress included, and returns once they have ended).
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
        await withTaskCancellationHandler {
            let jobs: [ScheduledJob] = state.withLock { state in
                guard !state.stopped, !state.started else { return [] }
                state.started = true
                return state.jobs
            }
            for job in jobs {
                start(job) { scheduler, loop in
                    await scheduler.runLoop(loop, start: .catchUp(last: records?[job.name], recordsKnown: records != nil))
                }
            }
            // Until cancelled: jobs come and go with reloads.
            await waitUntilStopped()
        } onCancel: {
            stopAll()
        }
        // Every loop has been cancelled: wait for them to end.
        let loops = state.withLock { Array($0.loops.values) + Array($0.retiring.values) }
        for loop in loops { await loop.task?.value }
    }

    /// Takes the jobs of a new configuration: starts the new ones, restarts those whose
    /// schedule or grace changed on their new schedule, stops those that are gone.
    public func replaceJobs(_ jobs: [ScheduledJob]) async {
        let change: JobChange = state.withLock { state in
            guard !state.stopped else { return .none }
            guard state.started else {
                state.jobs = jobs
                return .pending
            }
            var retired: [Loop] = []
            var started: [ScheduledJob] = []
            var added: [String] = []
            let wanted = Dictionary(jobs.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for (name, loop) in state.loops where wanted[name].map(Self.signature(of:)) != loop.signature {
                retired.append(loop)
                state.loops[name] = nil
                state.retiring[ObjectIdentifier(loop)] = loop
            }
            for job in jobs where state.loops[job.name] == nil && !started.contains(where: { $0.name == job.name }) {
                started.append(job)
                if !retired.contains(where: { $0.job.name == job.name }) { added.append(job.name) }
            }
            return .changes(retired: retired, started: started, added: added)
        }
        guard case .changes(let retired, let started, let added) = change else { return }
        for loop in retired {
            loop.retire()
            if !started.contains(where: { $0.name == loop.job.name }) {
                logger.info("job '\(loop.job.name)' removed by the new configuration", metadata: ["job": "\(loop.job.name)"])
            }
        }
        let records = (try? await store.jobRuns()) ?? [:]
        for job in started {
            let isNew = added.contains(job.name)
            logger.info("job '\(job.name)' \(isNew ? "added" : "rescheduled") by the new configuration (\(job.schedule))", metadata: ["job": "\(job.name)"])
            let registers = isNew && records[job.name] == nil
            start(job) { scheduler, loop in
                // An older loop of the same name may still be finishing its run.
                for old in retired where old.job.name == job.name { await old.task?.value }
                await scheduler.runLoop(loop, start: .fromNow(registers: registers))
            }
        }
    }

    /// What a ``replaceJobs(_:)`` changes.
    private enum JobChange {
        case none
        case pending
        case changes(retired: [Loop], started: [ScheduledJob], added: [String])
    }

    /// What tells a job's loop apart from the one it replaces: its schedule and grace.
    static func signature(of job: ScheduledJob) -> String { "\(job.schedule) grace \(text(job.grace))" }

    private func start(_ job: ScheduledJob, _ body: @escaping @Sendable (JobScheduler, Loop) async -> Void) {
        let loop = Loop(job: job)
        let admitted = state.withLock { state in
            guard !state.stopped else { return false }
            state.loops[job.name] = loop
            return true
        }
        guard admitted else { return }
        loop.attach(Task {
            await body(self, loop)
            _ = self.state.withLock { $0.retiring.removeValue(forKey: ObjectIdentifier(loop)) }
        })
    }

    private let stopSignal = Mutex<CheckedContinuation<Void, Never>?>(nil)

    private func waitUntilStopped() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.stopped { return true }
                stopSignal.withLock { $0 = continuation }
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func stopAll() {
        let loops: [Loop] = state.withLock { state in
            state.stopped = true
            return Array(state.loops.values) + Array(state.retiring.values)
        }
        for loop in loops { loop.task?.cancel() }
        stopSignal.withLock { $0.take() }?.resume()
    }

    /// How a loop begins.
    private enum Start {
        /// At the daemon's start: catch up on a run missed while it was down.
        case catchUp(last: JobRun?, recordsKnown: Bool)
        /// After a reload: wait for the next due time; `registers` records a job never seen.
        case fromNow(registers: Bool)
    }

    private func runLoop(_ loop: Loop, start: Start) async {
        let job = loop.job
        let metadata: Logger.Metadata = ["job": "\(job.name)"]
        let now = wallClock()
        var after: Timestamp
        switch start {
        case .fromNow(let registers):
            after = now
            if job.runsAtStart && registers {
                guard await execute(loop, due: now, metadata: metadata) else { return }
            } else if registers {
                await record(JobRun(job: job.name, due: now, outcome: .registered), metadata: metadata)
            }
        case .catchUp where job.runsAtStart:
            guard await execute(loop, due: now, metadata: metadata) else { return }
            after = now
        case .catchUp(let last, let recordsKnown):
            switch JobCatchUp.decide(schedule: job.schedule, last: recordsKnown ? last : nil, grace: job.grace, now: now) {
            case .wait(let resumeAfter):
                after = resumeAfter
                if last == nil && recordsKnown {
                    await record(JobRun(job: job.name, due: now, outcome: .registered), metadata: metadata)
                }
            case .runNow(let due):
                logger.notice("job '\(job.name)' was due at \(due) while pricewatch was down; running it now, within its grace of \(Self.text(job.grace))", metadata: metadata)
                guard await execute(loop, due: due, metadata: metadata) else { return }
                after = due
            case .skip(let due):
                logger.warning("job '\(job.name)' was due at \(due) while pricewatch was down; skipped: that is beyond its grace of \(Self.text(job.grace)); next run on schedule (\(job.schedule))", metadata: metadata)
                await record(JobRun(job: job.name, due: due, outcome: .skipped), metadata: metadata)
                after = due
            }
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
                guard await execute(loop, due: latest, metadata: metadata) else { return }
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

    /// Runs the job for `due` and records the run; false when the loop was retired (before or
    /// during the run) and must end.
    private func execute(_ loop: Loop, due: Timestamp, metadata: Logger.Metadata) async -> Bool {
        guard loop.beginRun() else { return false }
        await execute(loop.job, due: due, metadata: metadata)
        return loop.endRun()
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
