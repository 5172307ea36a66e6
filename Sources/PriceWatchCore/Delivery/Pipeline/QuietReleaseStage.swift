/// When a sink's quiet hours end, the alerts they held go out together, as groups of at most
/// a group's size (``QuietRelease``), whatever the sink's `group_wait`, while slots and the
/// rate limit allow; a group with no room waits for the next pass. A lone released alert and
/// other notifications are left to grouping.
public struct QuietReleaseStage: DeliveryStage {
    public init() {}

    public func apply(to pass: inout SinkPass) {
        guard pass.settings.quietHours != nil else { return }
        let (rest, groups) = QuietRelease.split(pass.candidates, maximumGroupSize: pass.maximumGroupSize)
        for group in groups {
            guard pass.startable > 0 else {
                if pass.freeSlots <= 0 { pass.waitsForSlot = true }
                break
            }
            pass.start(group, released: true)
        }
        pass.candidates = rest
    }
}
