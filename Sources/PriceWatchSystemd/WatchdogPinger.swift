/// Sends the watchdog pings: every `period` (half of systemd's `WatchdogSec=`), one ping,
/// but only while the ``WatchdogMonitor`` sees every poller progressing. A stalled scheduler
/// therefore stops the pings and systemd restarts the service after `WatchdogSec=`; pings
/// resume by themselves if the pollers recover first.
///
/// The pings come from this loop, not from the pollers: a poll interval longer than
/// `WatchdogSec=` is fine, and a starved or wedged task pool stops the pings too.
public struct WatchdogPinger<C: Clock<Duration>>: Sendable {
    let monitor: WatchdogMonitor<C>
    let clock: C
    let period: Duration
    let ping: @Sendable () -> Void
    let stalled: @Sendable ([WatchdogMonitor<C>.Stall]) -> Void
    let recovered: @Sendable () -> Void

    /// - Parameters:
    ///   - ping: sends `WATCHDOG=1`.
    ///   - stalled: called once when pings stop, with the stalled pollers.
    ///   - recovered: called once when pings resume after a stall.
    public init(monitor: WatchdogMonitor<C>, clock: C, period: Duration, ping: @escaping @Sendable () -> Void,
                stalled: @escaping @Sendable ([WatchdogMonitor<C>.Stall]) -> Void = { _ in },
                recovered: @escaping @Sendable () -> Void = {}) {
        self.monitor = monitor
        self.clock = clock
        self.period = period
        self.ping = ping
        self.stalled = stalled
        self.recovered = recovered
    }

    /// Pings until the task is cancelled.
    public func run() async {
        var withholding = false
        while !Task.isCancelled {
            let stalls = monitor.stalledPollers()
            if stalls.isEmpty {
                if withholding { recovered() }
                withholding = false
                ping()
            } else if !withholding {
                withholding = true
                stalled(stalls)
            }
            // From now, not from the last tick: after a suspension (a stopped process, a
            // suspended machine) one ping follows, not a burst of the missed ones.
            do {
                try await clock.sleep(until: clock.now.advanced(by: period), tolerance: nil)
            } catch {
                return
            }
        }
    }
}
