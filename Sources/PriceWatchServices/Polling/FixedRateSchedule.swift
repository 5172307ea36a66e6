/// A fixed-rate schedule on a monotonic clock, without drift: ticks at `start + k * interval`.
/// A tick whose work overruns the interval skips the ticks it missed rather than bursting to
/// catch up.
struct FixedRateSchedule<C: Clock<Duration>>: Sendable {
    let interval: Duration
    let clock: C

    /// Runs `tick` at once and then on every tick until the task is cancelled. `tick` gets the
    /// instant of the next tick (its work should end by then); `skipped` is told how many ticks
    /// an overrun missed.
    func run(_ tick: (_ nextTick: C.Instant) async -> Void, skipped: (Int) -> Void) async {
        var next = clock.now
        while !Task.isCancelled {
            await tick(next.advanced(by: interval))
            next = next.advanced(by: interval)
            let now = clock.now
            if next < now {
                var missed = 0
                while next < now {
                    next = next.advanced(by: interval)
                    missed += 1
                }
                skipped(missed)
            }
            do {
                try await clock.sleep(until: next, tolerance: nil)
            } catch {
                return
            }
        }
    }
}
