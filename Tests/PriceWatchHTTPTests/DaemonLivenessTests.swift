import PriceWatchCore
import PriceWatchServices
import Testing

/// What `/healthz` answers, from the daemon's liveness: each poller polled within three
/// intervals (at least a minute) and the dispatcher runs.
struct DaemonLivenessTests {
    static func at(_ seconds: Int64) -> Timestamp { Timestamp(milliseconds: 1_800_000_000_000 + seconds * 1000) }

    @Test func aliveWhilePollsKeepComingAndTheDispatcherRuns() {
        let liveness = DaemonLiveness()
        #expect(liveness.problems(at: Self.at(0)) == ["the daemon is starting"])
        liveness.ready(pollers: ["yahoo": .seconds(60), "replay": .seconds(1)], at: Self.at(0))
        liveness.deliveryRunning(true)
        #expect(liveness.problems(at: Self.at(59)).isEmpty, "no poll yet, but within a minute of the start")
        liveness.polled(provider: "yahoo", at: Self.at(60))
        liveness.polled(provider: "replay", at: Self.at(60))
        #expect(liveness.problems(at: Self.at(120)).isEmpty)
    }

    @Test func aSilentPollerOrAStoppedDispatcherIsAProblem() {
        let liveness = DaemonLiveness()
        liveness.ready(pollers: ["yahoo": .seconds(60)], at: Self.at(0))
        liveness.deliveryRunning(true)
        liveness.polled(provider: "yahoo", at: Self.at(10))
        let late = liveness.problems(at: Self.at(10 + 181))
        #expect(late.count == 1)
        #expect(late.first?.hasPrefix("polling: provider 'yahoo' has not polled for 3m1s") == true, "\(late)")
        liveness.polled(provider: "yahoo", at: Self.at(190))
        liveness.deliveryRunning(false)
        #expect(liveness.problems(at: Self.at(191)) == ["delivery: the dispatcher is not running"])
    }
}
