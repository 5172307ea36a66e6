/// One sink's share of an outbox pass: what the stages of a ``DeliveryPipeline`` read and
/// decide. Pure data; the dispatcher builds it from the store, its slots and the clock, runs
/// the pipeline on it and carries out ``actions``.
public struct SinkPass: Sendable {
    /// The sink's name (`[sinks.NAME]`).
    public let sink: String
    /// The wall-clock time of the pass.
    public let now: Timestamp
    public let settings: SinkDeliverySettings
    /// The most alerts one group carries.
    public let maximumGroupSize: Int
    /// The operator's silences (nil: none were read, as nothing due is an alert).
    public let silences: SilenceSet?
    /// The rules whose alerts are urgent (never held for quiet hours).
    public let urgentRules: Set<String>
    /// When the sink's recent attempts started (for its rate limit).
    public let recentStarts: [Timestamp]

    /// Due deliveries no stage has decided yet, in the store's order (none is in flight).
    public var candidates: [Delivery]
    /// Batches the sink may still have in flight: its `concurrency` less those in flight.
    public var freeSlots: Int
    /// Batches its rate limit still allows now (`Int.max`: no limit).
    public var allowance = Int.max
    /// What to do, in order.
    public private(set) var actions: [DeliveryAction] = []
    /// When to look again (a group closes, the rate window moves on).
    public private(set) var wakeAt: Timestamp?
    /// Whether due deliveries wait for a slot, which a finishing attempt frees.
    public var waitsForSlot = false

    public init(sink: String, now: Timestamp, settings: SinkDeliverySettings, maximumGroupSize: Int = 100,
                silences: SilenceSet? = nil, urgentRules: Set<String> = [], recentStarts: [Timestamp] = [],
                candidates: [Delivery], freeSlots: Int) {
        self.sink = sink
        self.now = now
        self.settings = settings
        self.maximumGroupSize = max(maximumGroupSize, 1)
        self.silences = silences
        self.urgentRules = urgentRules
        self.recentStarts = recentStarts
        self.candidates = candidates
        self.freeSlots = freeSlots
    }

    /// Batches that may start now: within both the free slots and the rate limit.
    public var startable: Int { max(min(freeSlots, allowance), 0) }

    /// Starts `batch` as one attempt, taking a slot and a place in the rate window.
    public mutating func start(_ batch: [Delivery], released: Bool = false) {
        guard !batch.isEmpty else { return }
        actions.append(.attempt(batch, released: released))
        freeSlots -= 1
        if allowance != .max { allowance -= 1 }
    }

    /// Records a decision that is not an attempt (a silence, a hold).
    public mutating func decide(_ action: DeliveryAction) {
        actions.append(action)
    }

    /// Asks to be looked at again at `time` (the earliest asked for wins).
    public mutating func wake(at time: Timestamp) {
        wakeAt = min(wakeAt ?? time, time)
    }

    /// The batches to attempt, in order.
    public var attempts: [[Delivery]] {
        actions.compactMap { action in
            if case .attempt(let batch, _) = action { return batch }
            return nil
        }
    }
}
