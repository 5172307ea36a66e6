import Foundation
import Logging
import PriceWatchCore
import PriceWatchServices
import PriceWatchStore
import PriceWatchTestKit
import Synchronization
import Testing

/// The scheduler over a real SQLite store, with a manual clock and wall clock: calendar jobs
/// across daylight-saving changes, restarts before and after a due time, and runs missed while
/// the daemon was down, within and beyond their grace.
@Suite struct JobSchedulerTests {
    typealias F = EngineFixtures

    /// The due times a job ran for, in order.
    final class RunLog: Sendable {
        private let dues = Mutex<[Timestamp]>([])
        var all: [Timestamp] { dues.withLock { $0 } }
        func append(_ due: Timestamp) { dues.withLock { $0.append(due) } }
    }

    /// One daemon life: a scheduler over `store` from `start` on, until ``stop()``.
    struct Life {
        let clock = ManualClock()
        let wall: ManualWallClock
        let task: Task<Void, Never>
        let scheduler: JobScheduler<ManualClock>

        /// `maximumSleep` is long so days pass in few steps; the wall clock never steps here.
        init(jobs: [ScheduledJob], store: SQLiteAlertStore, start: Timestamp, maximumSleep: Duration = .seconds(3_600)) {
            let clock = self.clock
            let wall = ManualWallClock(start)
            self.wall = wall
            let scheduler = JobScheduler(jobs: jobs, store: store, clock: clock, wallClock: wall.function, logger: F.logger,
                                         maximumSleep: maximumSleep)
            self.scheduler = scheduler
            task = Task { await scheduler.run() }
        }

        /// Waits (real time, bounded) until the scheduler sleeps: whatever it does at its
        /// current time is done.
        func settle() async throws {
            try await waitUntil("the scheduler to sleep again") { clock.sleeperCount >= scheduler.jobNames.count }
        }

        /// Moves both clocks to `target`, waking the scheduler at each of its own deadlines, so
        /// every due time is reached exactly.
        func advance(to target: Timestamp) async throws {
            try await settle()
            while wall.now < target {
                let remaining = Duration.milliseconds(target.milliseconds - wall.now.milliseconds)
                let toDeadline = clock.earliestDeadline.map { clock.now.duration(to: $0) } ?? remaining
                let step = max(min(toDeadline, remaining), .milliseconds(1))
                let milliseconds = step.components.seconds * 1000 + step.components.attoseconds / 1_000_000_000_000_000
                wall.advance(milliseconds: milliseconds)
                clock.advance(by: step)
                try await settle()
            }
        }

        func stop() async {
            task.cancel()
            await task.value
        }
    }

    static func time(_ text: String) throws -> Timestamp { try #require(Timestamp(parsing: text), "bad time \(text)") }

    static func job(_ schedule: String, grace: Int64? = 3_600, log: RunLog, name: String = "job") throws -> ScheduledJob {
        ScheduledJob(name: name, schedule: try CalendarSchedule(parsing: schedule),
                     grace: grace.flatMap(RuleDuration.init(seconds:))) { due in log.append(due) }
    }

    /// Runs a daily job from `start` to `end` in one life and returns the due times it ran for.
    static func runs(_ schedule: String, from start: String, to end: String) async throws -> [String] {
        let store = try SQLiteAlertStore.inMemory()
        let log = RunLog()
        let life = Life(jobs: [try job(schedule, log: log)], store: store, start: try time(start))
        try await life.advance(to: try time(end))
        await life.stop()
        return log.all.map(\.rfc3339)
    }

    // MARK: - Reloads

    /// Issue 30, item 17: the jobs followed the configuration only at start, so a digest added
    /// or rescheduled by SIGHUP waited for a restart. Through the reload's subscriber: a job
    /// rescheduled runs at its new time only, a new one at its time, a removed one no more;
    /// the run records stay.
    @Test func aReloadAddsReschedulesAndRemovesJobs() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let (morning, evening, gone, added) = (RunLog(), RunLog(), RunLog(), RunLog())
        let life = Life(jobs: [try Self.job("daily 08:00 UTC", log: morning, name: "digest-morning"),
                               try Self.job("daily 18:00 UTC", log: evening, name: "digest-evening"),
                               try Self.job("daily 09:00 UTC", log: gone, name: "digest-gone")],
                        store: store, start: try Self.time("2025-06-01T07:00:00Z"))
        try await life.settle()
        #expect(life.scheduler.jobNames == ["digest-evening", "digest-gone", "digest-morning"])

        let reloaded = [try Self.job("daily 10:00 UTC", log: morning, name: "digest-morning"),   // rescheduled
                        try Self.job("daily 18:00 UTC", log: evening, name: "digest-evening"),   // unchanged
                        try Self.job("daily 08:30 UTC", log: added, name: "digest-new")]         // added
        let subscriber = ScheduledJobsSubscriber(scheduler: life.scheduler) { _ in reloaded }
        let setup = ServiceSetup(configuration: F.configuration(rules: []), providers: [:], sinks: [:])
        try await subscriber.apply(setup, now: life.wall.now)
        #expect(life.scheduler.jobNames == ["digest-evening", "digest-gone", "digest-morning"], "apply changes nothing: a later subscriber may refuse")
        await subscriber.resume(with: setup)
        #expect(life.scheduler.jobNames == ["digest-evening", "digest-morning", "digest-new"])
        try await waitUntil("three loops asleep, the retired ones gone") { life.clock.sleeperCount == 3 }

        try await life.advance(to: try Self.time("2025-06-01T19:00:00Z"))
        #expect(morning.all == [try Self.time("2025-06-01T10:00:00Z")], "the rescheduled job runs at its new time, not its old")
        #expect(added.all == [try Self.time("2025-06-01T08:30:00Z")])
        #expect(evening.all == [try Self.time("2025-06-01T18:00:00Z")], "an unchanged job keeps its loop")
        #expect(gone.all.isEmpty, "a removed job runs no more")
        let records = try await store.jobRuns()
        #expect(records["digest-gone"] != nil, "a removed job's record stays")
        #expect(records["digest-morning"]?.outcome == .succeeded)
        #expect(records["digest-new"]?.due == (try Self.time("2025-06-01T08:30:00Z")))
        await life.stop()
    }

    /// A job that runs at start (the calendars' reads) runs at once in every life, whatever its
    /// last run, then on its schedule; added by a reload, it runs at once too.
    @Test func aJobThatRunsAtStartRunsAtOnceInEachLifeAndWhenAdded() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let log = RunLog()
        let job = ScheduledJob(name: "calendars", schedule: try CalendarSchedule(parsing: "hourly :00"), grace: nil,
                               runsAtStart: true) { due in log.append(due) }
        let first = Life(jobs: [job], store: store, start: try Self.time("2025-06-01T07:20:00Z"))
        try await first.advance(to: try Self.time("2025-06-01T08:30:00Z"))
        await first.stop()
        #expect(log.all == [try Self.time("2025-06-01T07:20:00Z"), try Self.time("2025-06-01T08:00:00Z")])
        let second = Life(jobs: [job], store: store, start: try Self.time("2025-06-01T08:40:00Z"))
        try await second.settle()
        #expect(log.all.last == (try Self.time("2025-06-01T08:40:00Z")), "a restart runs it again at once")
        await second.stop()

        let added = RunLog()
        let third = Life(jobs: [], store: store, start: try Self.time("2025-06-01T09:10:00Z"))
        try await third.settle()
        let reloaded = [ScheduledJob(name: "calendars-2", schedule: try CalendarSchedule(parsing: "hourly :00"), grace: nil,
                                     runsAtStart: true) { due in added.append(due) }]
        let subscriber = ScheduledJobsSubscriber(scheduler: third.scheduler) { _ in reloaded }
        let setup = ServiceSetup(configuration: F.configuration(rules: []), providers: [:], sinks: [:])
        try await subscriber.apply(setup, now: third.wall.now)
        await subscriber.resume(with: setup)
        try await waitUntil("the added job to run at once") { added.all.count == 1 }
        #expect(added.all == [try Self.time("2025-06-01T09:10:00Z")])
        await third.stop()
    }

    /// A job retired by a reload while it runs finishes its run; a shutdown meanwhile cancels
    /// that run too, and the scheduler returns only once it has ended.
    @Test func aShutdownCancelsTheRunOfAJobARetiredReloadLeftFinishing() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let started = Mutex(false)
        let cancelled = Mutex(false)
        let slow = ScheduledJob(name: "digest-slow", schedule: try CalendarSchedule(parsing: "daily 08:00 UTC"), grace: nil) { _ in
            started.withLock { $0 = true }
            // Until cancelled: a run that would outlast the test.
            let waiting = Mutex<CheckedContinuation<Void, Never>?>(nil)
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    waiting.withLock { $0 = continuation }
                    if Task.isCancelled { waiting.withLock { $0.take() }?.resume() }
                }
            } onCancel: {
                waiting.withLock { $0.take() }?.resume()
            }
            cancelled.withLock { $0 = true }
        }
        let life = Life(jobs: [slow], store: store, start: try Self.time("2025-06-01T07:59:00Z"))
        try await life.settle()
        life.wall.advance(milliseconds: 60_000)
        life.clock.advance(by: .seconds(60))
        try await waitUntil("the slow job to start its run") { started.withLock { $0 } }
        await life.scheduler.replaceJobs([])
        #expect(life.scheduler.jobNames.isEmpty)
        #expect(!cancelled.withLock { $0 }, "a reload lets a run finish")
        await life.stop()
        #expect(cancelled.withLock { $0 }, "shutdown cancelled the retired job's run, and the scheduler waited for it")
    }

    // MARK: - Daylight-saving changes

    @Test func europeSpringForwardRunsOnceAtTheNextValidMinute() async throws {
        // Berlin, 2025-03-30: 02:00 CET becomes 03:00 CEST (01:00Z); 02:30 does not exist.
        #expect(try await Self.runs("daily 02:30 Europe/Berlin", from: "2025-03-28T12:00:00Z", to: "2025-03-31T12:00:00Z")
            == ["2025-03-29T01:30:00Z", "2025-03-30T01:00:00Z", "2025-03-31T00:30:00Z"])
    }

    @Test func europeFallBackRunsOnceAtTheFirstOccurrence() async throws {
        // Berlin, 2025-10-26: 03:00 CEST becomes 02:00 CET (01:00Z); 02:30 happens twice.
        #expect(try await Self.runs("daily 02:30 Europe/Berlin", from: "2025-10-24T12:00:00Z", to: "2025-10-27T12:00:00Z")
            == ["2025-10-25T00:30:00Z", "2025-10-26T00:30:00Z", "2025-10-27T01:30:00Z"])
    }

    @Test func americaSpringForwardRunsOnceAtTheNextValidMinute() async throws {
        // New York, 2025-03-09: 02:00 EST becomes 03:00 EDT (07:00Z); 02:30 does not exist.
        #expect(try await Self.runs("daily 02:30 America/New_York", from: "2025-03-07T12:00:00Z", to: "2025-03-10T12:00:00Z")
            == ["2025-03-08T07:30:00Z", "2025-03-09T07:00:00Z", "2025-03-10T06:30:00Z"])
    }

    @Test func americaFallBackRunsOnceAtTheFirstOccurrence() async throws {
        // New York, 2025-11-02: 02:00 EDT becomes 01:00 EST (06:00Z); 01:30 happens twice.
        #expect(try await Self.runs("daily 01:30 America/New_York", from: "2025-10-31T12:00:00Z", to: "2025-11-03T12:00:00Z")
            == ["2025-11-01T05:30:00Z", "2025-11-02T05:30:00Z", "2025-11-03T06:30:00Z"])
    }

    @Test func weeklyJobFollowsTheZoneAcrossTheChange() async throws {
        // Monday 07:30 in New York: EST before 2025-03-09, EDT after.
        #expect(try await Self.runs("weekly mon 07:30 America/New_York", from: "2025-02-28T00:00:00Z", to: "2025-03-11T00:00:00Z")
            == ["2025-03-03T12:30:00Z", "2025-03-10T11:30:00Z"])
    }

    // MARK: - Restarts

    @Test func restartBeforeTheDueTimeRunsAtTheDueTimeOnce() async throws {
        let directory = try TemporaryDirectory()
        let log = RunLog()
        let job = try Self.job("daily 08:00 UTC", log: log)
        var store = try SQLiteAlertStore.open(path: directory.file("state.db"))
        let first = Life(jobs: [job], store: store, start: try Self.time("2025-06-01T06:00:00Z"))
        try await first.advance(to: try Self.time("2025-06-01T07:00:00Z"))
        await first.stop()
        try store.close()

        store = try SQLiteAlertStore.open(path: directory.file("state.db"))
        let second = Life(jobs: [job], store: store, start: try Self.time("2025-06-01T07:30:00Z"))
        try await second.settle()
        #expect(log.all.isEmpty, "nothing was due before the restart")
        try await second.advance(to: try Self.time("2025-06-01T08:10:00Z"))
        #expect(log.all == [try Self.time("2025-06-01T08:00:00Z")])
        await second.stop()

        // A restart after the run does not repeat it.
        let third = Life(jobs: [job], store: store, start: try Self.time("2025-06-01T08:20:00Z"))
        try await third.advance(to: try Self.time("2025-06-01T09:00:00Z"))
        await third.stop()
        #expect(log.all == [try Self.time("2025-06-01T08:00:00Z")])
        #expect(try await store.jobRuns()["job"]?.outcome == .succeeded)
    }

    @Test func restartAfterAMissedDueTimeWithinGraceRunsOnceAtStart() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let log = RunLog()
        let job = try Self.job("daily 08:00 UTC", grace: 3_600, log: log)
        let first = Life(jobs: [job], store: store, start: try Self.time("2025-06-01T07:00:00Z"))
        try await first.advance(to: try Self.time("2025-06-01T07:30:00Z"))
        await first.stop()
        #expect(log.all.isEmpty)

        // Down from 07:30 to 08:45: 08:00 was missed, 45 minutes ago, within the hour of grace.
        let second = Life(jobs: [job], store: store, start: try Self.time("2025-06-01T08:45:00Z"))
        try await second.settle()
        #expect(log.all == [try Self.time("2025-06-01T08:00:00Z")], "the missed run is made up once, at start")
        await second.stop()

        let third = Life(jobs: [job], store: store, start: try Self.time("2025-06-01T08:50:00Z"))
        try await third.advance(to: try Self.time("2025-06-02T08:00:00Z"))
        await third.stop()
        #expect(log.all == [try Self.time("2025-06-01T08:00:00Z"), try Self.time("2025-06-02T08:00:00Z")],
                "not repeated after another restart; the next day on time")
    }

    @Test func runMissedBeyondGraceIsSkippedAndRecorded() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let log = RunLog()
        let job = try Self.job("daily 08:00 UTC", grace: 3_600, log: log)
        let first = Life(jobs: [job], store: store, start: try Self.time("2025-06-01T07:00:00Z"))
        try await first.settle()
        await first.stop()

        // Down until 09:30: 08:00 is 90 minutes past, beyond the hour of grace.
        let second = Life(jobs: [job], store: store, start: try Self.time("2025-06-01T09:30:00Z"))
        try await second.settle()
        #expect(log.all.isEmpty, "a run missed beyond its grace is not made up")
        let record = try #require(try await store.jobRuns()["job"])
        #expect(record.outcome == .skipped)
        #expect(record.due == (try Self.time("2025-06-01T08:00:00Z")))
        try await second.advance(to: try Self.time("2025-06-02T08:00:00Z"))
        await second.stop()
        #expect(log.all == [try Self.time("2025-06-02T08:00:00Z")], "the next due time runs as usual")
    }

    @Test func severalMissedDueTimesCollapseIntoOneRun() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let log = RunLog()
        let job = try Self.job("hourly", grace: 86_400, log: log)
        let first = Life(jobs: [job], store: store, start: try Self.time("2025-06-01T07:30:00Z"))
        try await first.settle()
        await first.stop()
        let second = Life(jobs: [job], store: store, start: try Self.time("2025-06-01T11:15:00Z"))
        try await second.settle()
        await second.stop()
        #expect(log.all == [try Self.time("2025-06-01T11:00:00Z")])
    }

    @Test func aJobNeverSeenWaitsForItsFirstDueTimeAndIsThenOwed() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let log = RunLog()
        let job = try Self.job("daily 08:00 UTC", grace: 3_600, log: log)
        // First start after today's due time: nothing runs (the job did not exist at 08:00).
        let first = Life(jobs: [job], store: store, start: try Self.time("2025-06-01T09:00:00Z"))
        try await first.settle()
        await first.stop()
        #expect(log.all.isEmpty)
        #expect(try await store.jobRuns()["job"]?.outcome == .registered)
        // Down over the next due time, back within the grace: it runs.
        let second = Life(jobs: [job], store: store, start: try Self.time("2025-06-02T08:30:00Z"))
        try await second.settle()
        await second.stop()
        #expect(log.all == [try Self.time("2025-06-02T08:00:00Z")])
    }

    @Test func aFailingJobIsRecordedAndRunsAgainAtItsNextDueTime() async throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "disk on fire" } }
        let store = try SQLiteAlertStore.inMemory()
        let attempts = RunLog()
        let failing = ScheduledJob(name: "failing", schedule: try CalendarSchedule(parsing: "hourly"),
                                   grace: nil) { due in
            attempts.append(due)
            throw Broken()
        }
        let log = RunLog()
        let healthy = try Self.job("hourly :30", log: log, name: "healthy")
        let life = Life(jobs: [failing, healthy], store: store, start: try Self.time("2025-06-01T06:59:00Z"))
        try await life.advance(to: try Self.time("2025-06-01T08:45:00Z"))
        await life.stop()
        #expect(attempts.all == [try Self.time("2025-06-01T07:00:00Z"), try Self.time("2025-06-01T08:00:00Z")])
        #expect(log.all == [try Self.time("2025-06-01T07:30:00Z"), try Self.time("2025-06-01T08:30:00Z")],
                "one job's failure does not touch another")
        let record = try #require(try await store.jobRuns()["failing"])
        #expect(record.outcome == .failed)
        #expect(record.error == "disk on fire")
    }
}
