import PriceWatchSystemd
import PriceWatchTestKit
import Synchronization
import Testing

/// The watchdog's judgement of progress, on a manual clock: pings while every poller keeps
/// finishing polls, none once one is stuck, pings again when it recovers.
@Suite struct WatchdogTests {
    /// What the pinger did, in order.
    final class Recorder: Sendable {
        enum Event: Equatable { case ping, stalled([String]), recovered }
        private let events = Mutex<[Event]>([])
        func record(_ event: Event) { events.withLock { $0.append(event) } }
        var all: [Event] { events.withLock { $0 } }
        var pings: Int { all.filter { $0 == .ping }.count }
    }

    @Test func theWindowIsTwiceTheIntervalPlusTheGrace() {
        let monitor = WatchdogMonitor(clock: ManualClock(), grace: .seconds(120))
        #expect(monitor.window(forInterval: .seconds(60)) == .seconds(240))
        #expect(monitor.window(forInterval: .seconds(1)) == .seconds(122))
        #expect(monitor.window(forInterval: .seconds(3600)) == .seconds(7320))
    }

    @Test func aPollerIsStalledOnlyPastItsWindow() {
        let clock = ManualClock()
        let monitor = WatchdogMonitor(clock: clock, grace: .seconds(20))
        monitor.expect(pollers: ["fast": .seconds(10), "slow": .seconds(60)])
        clock.advance(by: .seconds(40))
        #expect(monitor.stalledPollers().isEmpty, "exactly at the window is still in time")
        clock.advance(by: .milliseconds(1))
        #expect(monitor.stalledPollers().map(\.poller) == ["fast"])
        #expect(monitor.stalledPollers().first?.silentFor == .milliseconds(40_001))
        monitor.progressed("fast")
        #expect(monitor.stalledPollers().isEmpty)
        clock.advance(by: .seconds(100))
        #expect(monitor.stalledPollers().map(\.poller) == ["fast", "slow"])
        monitor.progressed("unknown")
        #expect(monitor.stalledPollers().count == 2)
    }

    @Test func aReloadNeverFeedsAStuckPoller() {
        let clock = ManualClock()
        let monitor = WatchdogMonitor(clock: clock, grace: .seconds(20))
        monitor.expect(pollers: ["stuck": .seconds(10)])
        clock.advance(by: .seconds(30))
        // A reload (even a rejected one) repeats the schedule: the stuck poller keeps its
        // last progress, a new poller starts its window now, a removed one is forgotten.
        monitor.expect(pollers: ["stuck": .seconds(10), "new": .seconds(10)])
        clock.advance(by: .seconds(11))
        #expect(monitor.stalledPollers().map(\.poller) == ["stuck"])
        monitor.expect(pollers: ["new": .seconds(10)])
        #expect(monitor.stalledPollers().isEmpty)
    }

    @Test func noPollersMeansNothingCanStall() {
        let clock = ManualClock()
        let monitor = WatchdogMonitor(clock: clock)
        monitor.expect(pollers: [:])
        clock.advance(by: .seconds(86_400))
        #expect(monitor.stalledPollers().isEmpty)
    }

    /// Two providers: `quick` polls every 10 s, `stuck` every 60 s (window 60·2 + 20 = 140 s).
    /// Pings every 30 s. `stuck` finishes its last poll at t = 60 and then hangs: pings go on
    /// through t = 180 (120 s of silence), stop at t = 210 (150 s > 140 s), and resume at
    /// the first check after it finishes a poll again.
    @Test func aStuckSchedulerStopsThePingsAndARecoveryResumesThem() async throws {
        let clock = ManualClock()
        let monitor = WatchdogMonitor(clock: clock, grace: .seconds(20))
        monitor.expect(pollers: ["quick": .seconds(10), "stuck": .seconds(60)])
        let recorder = Recorder()
        let pinger = WatchdogPinger(monitor: monitor, clock: clock, period: .seconds(30),
                                    ping: { recorder.record(.ping) },
                                    stalled: { recorder.record(.stalled($0.map(\.poller))) },
                                    recovered: { recorder.record(.recovered) })
        let task = Task { await pinger.run() }
        defer { task.cancel() }

        /// Advances in 10 s steps to `seconds`, `quick` progressing at each step and `stuck`
        /// at the times listed, and lets the pinger check whenever it is due.
        var now = 0
        func run(to seconds: Int, stuckProgressesAt: Set<Int> = []) async throws {
            while now < seconds {
                try await clock.waitForSleepers(1)
                clock.advance(by: .seconds(10))
                now += 10
                monitor.progressed("quick")
                if stuckProgressesAt.contains(now) { monitor.progressed("stuck") }
                try await clock.waitForSleepers(1)
            }
        }

        try await clock.waitForSleepers(1)
        #expect(recorder.all == [.ping], "the first ping goes out at once")
        try await run(to: 180, stuckProgressesAt: [60])
        #expect(recorder.all == Array(repeating: .ping, count: 7), "t = 0, 30, ..., 180")
        try await run(to: 210)
        #expect(recorder.all.last == .stalled(["stuck"]))
        try await run(to: 400)
        #expect(recorder.pings == 7, "no ping while stuck")
        #expect(recorder.all.filter { $0 == .stalled(["stuck"]) }.count == 1, "the stall is reported once")
        try await run(to: 420, stuckProgressesAt: [410])
        #expect(recorder.all.suffix(2) == [.recovered, .ping], "t = 420: the first check after the recovery")
        #expect(recorder.pings == 8)
    }

    @Test func cancellingThePingerEndsIt() async throws {
        let clock = ManualClock()
        let monitor = WatchdogMonitor(clock: clock)
        let recorder = Recorder()
        let task = Task { await WatchdogPinger(monitor: monitor, clock: clock, period: .seconds(1), ping: { recorder.record(.ping) }).run() }
        try await clock.waitForSleepers(1)
        task.cancel()
        await task.value
        #expect(recorder.pings == 1)
    }
}
