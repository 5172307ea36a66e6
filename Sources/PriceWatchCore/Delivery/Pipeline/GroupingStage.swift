/// The last stage: each due delivery goes alone, or, with the sink's `group_wait`, alerts go
/// together as groups (``DeliveryBatchPlanner``), within the slots and the rate limit left.
/// What is left waits for a slot, for its group to close (a wake-up) or for the rate window.
public struct GroupingStage: DeliveryStage {
    public init() {}

    public func apply(to pass: inout SinkPass) {
        guard !pass.candidates.isEmpty else { return }
        let planner = DeliveryBatchPlanner(groupWait: pass.settings.groupWait, maximumGroupSize: pass.maximumGroupSize)
        let plan = planner.plan(pass.candidates, now: pass.now, freeSlots: pass.startable)
        for batch in plan.batches { pass.start(batch) }
        if let wakeAt = plan.wakeAt { pass.wake(at: wakeAt) }
        // Left for lack of a slot: a finishing attempt frees one. Left for the rate limit:
        // its stage asked for a wake-up.
        if plan.waiting > 0, pass.freeSlots <= 0 { pass.waitsForSlot = true }
        pass.candidates = []
    }
}
