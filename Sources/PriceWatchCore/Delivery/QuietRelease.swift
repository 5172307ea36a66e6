/// What goes out when a sink's quiet hours end: the alerts held until that moment, as groups
/// (one message for many alerts, at most a group's size each), whatever the sink's
/// `group_wait`. Pure.
public enum QuietRelease {
    /// Splits a sink's startable deliveries into those the normal plan handles and the groups
    /// of alerts being released from quiet hours (``Delivery/isQuietRelease``: due exactly at
    /// the end of the quiet period that held them, grouped per end). A lone released alert,
    /// and notifications of other kinds, go the normal way.
    public static func split(_ deliveries: [Delivery], maximumGroupSize: Int) -> (rest: [Delivery], groups: [[Delivery]]) {
        var releasedByEnd: [Timestamp: [Delivery]] = [:]
        var rest: [Delivery] = []
        for delivery in deliveries {
            if delivery.notification.kind == .alert, delivery.notification.alert != nil,
               delivery.isQuietRelease, let next = delivery.nextAttemptAt {
                releasedByEnd[next, default: []].append(delivery)
            } else {
                rest.append(delivery)
            }
        }
        var groups: [[Delivery]] = []
        for end in releasedByEnd.keys.sorted() {
            guard let members = releasedByEnd[end] else { continue }
            if members.count == 1 {
                rest.append(contentsOf: members)
                continue
            }
            // Oldest first, as groups are.
            let ordered = members.enumerated().sorted { ($0.element.createdAt, $0.offset) < ($1.element.createdAt, $1.offset) }
                .map(\.element)
            var start = 0
            while start < ordered.count {
                let end = min(start + max(maximumGroupSize, 1), ordered.count)
                groups.append(Array(ordered[start..<end]))
                start = end
            }
        }
        return (rest, groups)
    }
}
