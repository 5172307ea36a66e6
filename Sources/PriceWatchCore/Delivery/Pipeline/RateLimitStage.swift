/// A sink's `rate_limit`: the attempts its window still has room for bound what the stages
/// after this one start; when the due deliveries need more, the pass wakes when the window
/// has room again. Nothing sleeps: what waits stays pending in the outbox.
public struct RateLimitStage: DeliveryStage {
    public init() {}

    public func apply(to pass: inout SinkPass) {
        guard let limit = pass.settings.rateLimit, !pass.candidates.isEmpty else { return }
        let room = limit.room(now: pass.now, recentStarts: pass.recentStarts)
        pass.allowance = room
        // At most one attempt per candidate: if they need more than the room, the window
        // must move on before the rest go.
        if pass.candidates.count > room,
           let opening = limit.nextOpening(now: pass.now, recentStarts: pass.recentStarts, starting: room) {
            pass.wake(at: opening)
        }
    }
}
