/// Decides which pending deliveries of one sink go out now, and how: each alone, or, for a
/// sink with a `group_wait`, together as groups (one message for many alerts).
///
/// Pure: the caller passes the sink's due deliveries that are not in flight (in the store's
/// order), the wall-clock time and how many more batches the sink may have in flight; it gets
/// back the batches to start and, when something due must still wait, the time to look again.
///
/// Grouping rule, with `groupWait` W: the oldest due delivery (by queue time) opens a group
/// that closes W after it was queued. Until it closes nothing of the sink is sent. When it has
/// closed, every due delivery queued no later than that close goes out as one batch, oldest
/// first, at most ``maximumGroupSize`` of them; the next oldest opens the next group, and so
/// on while slots are free. A retried group keeps its members (they share one outcome, so they
/// fall due together again) and is long past its close, so it goes out at once.
///
/// Alerts are grouped, and news headlines (kind `news`), each kind in groups of its own (the
/// grouping rule above, per kind); a delivery of any other kind (a digest, a report, a test
/// message, a reminder) goes alone as soon as it is due and a slot is free, ahead of the groups.
public struct DeliveryBatchPlanner: Sendable, Hashable {
    /// How long, in milliseconds, a group stays open after its first alert was queued; nil:
    /// no grouping, every delivery goes alone.
    public var groupWait: Int64?
    /// The most alerts one group carries; more wait for the next group.
    public var maximumGroupSize: Int

    public init(groupWait: Int64?, maximumGroupSize: Int = 100) {
        self.groupWait = groupWait
        self.maximumGroupSize = max(maximumGroupSize, 1)
    }

    /// What to start now, and when to plan again.
    public struct Plan: Sendable, Hashable {
        /// Each batch goes out as one attempt; a batch of one is a single delivery.
        public var batches: [[Delivery]]
        /// When the next group closes, if one is open (the caller wakes up then).
        public var wakeAt: Timestamp?
        /// Due deliveries left for lack of a free slot.
        public var waiting: Int

        public init(batches: [[Delivery]], wakeAt: Timestamp?, waiting: Int) {
            self.batches = batches
            self.wakeAt = wakeAt
            self.waiting = waiting
        }
    }

    /// Plans the deliveries among `candidates` whose next attempt is at or before `now`, with
    /// at most `freeSlots` batches.
    public func plan(_ candidates: [Delivery], now: Timestamp, freeSlots: Int) -> Plan {
        let due = candidates.filter { ($0.nextAttemptAt ?? $0.createdAt) <= now }
        var slots = max(freeSlots, 0)
        guard let groupWait else {
            let started = due.prefix(slots).map { [$0] }
            return Plan(batches: started, wakeAt: nil, waiting: due.count - started.count)
        }
        var batches: [[Delivery]] = []
        let alone = due.filter { !Self.groups($0) }
        for delivery in alone.prefix(slots) { batches.append([delivery]) }
        let aloneWaiting = alone.count - min(alone.count, slots)
        slots -= min(alone.count, slots)
        // Oldest queued first; the sort is stable, so equal times keep the store's order.
        var wakeAt: Timestamp?
        var waiting = aloneWaiting
        for kind in Self.groupedKinds {
            var remaining = due.filter { Self.groupKind($0) == kind }.enumerated()
                .sorted { ($0.element.createdAt, $0.offset) < ($1.element.createdAt, $1.offset) }
                .map(\.element)[...]
            var opened = false
            while let first = remaining.first {
                let closes = Timestamp(milliseconds: first.createdAt.milliseconds + max(groupWait, 0))
                if now < closes {
                    wakeAt = min(wakeAt ?? closes, closes)
                    opened = true
                    break
                }
                guard slots > 0 else { break }
                let members = remaining.prefix { $0.createdAt <= closes }.prefix(maximumGroupSize)
                batches.append(Array(members))
                remaining = remaining.dropFirst(members.count)
                slots -= 1
            }
            if !opened { waiting += remaining.count }
        }
        return Plan(batches: batches, wakeAt: wakeAt, waiting: waiting)
    }

    /// The kinds that are grouped, in the order their groups take free slots.
    static let groupedKinds: [NotificationKind] = [.alert, .news]

    /// The kind whose groups `delivery` may join; nil: it goes alone.
    static func groupKind(_ delivery: Delivery) -> NotificationKind? {
        if delivery.notification.kind == .alert { return delivery.notification.alert != nil ? .alert : nil }
        if delivery.notification.kind == .news, case .message = delivery.notification.content { return .news }
        return nil
    }

    /// Whether a delivery may join a group (an alert, a headline).
    static func groups(_ delivery: Delivery) -> Bool { groupKind(delivery) != nil }
}
