// The values the store's role ports (``RuleStateStore``, ``QuoteHistoryStore``,
// ``OutboxStore``, ``AlertLogStore``, ``RetentionStore``; ``JobRunStore`` has its own) read
// and write.

/// Identifies one rule-and-symbol state.
public struct RuleStateKey: Sendable, Hashable, Codable {
    public var rule: String
    public var symbol: String
    public init(rule: String, symbol: String) {
        self.rule = rule
        self.symbol = symbol
    }
}

/// A rule state as stored: the state and the rule fingerprint it belongs to.
public struct StoredRuleState: Sendable, Hashable {
    public var fingerprint: String
    public var state: RuleState
    public init(fingerprint: String, state: RuleState) {
        self.fingerprint = fingerprint
        self.state = state
    }
}

/// One stored price of a symbol.
public struct HistoryPoint: Sendable, Hashable {
    public var time: Timestamp
    public var price: ExactDecimal
    public init(time: Timestamp, price: ExactDecimal) {
        self.time = time
        self.price = price
    }
}

/// Everything one poll of one provider changes, written in one transaction.
public struct StoreCommit: Sendable, Hashable {
    public var provider: String
    /// Accepted quotes, in time order.
    public var quotes: [Quote]
    /// Rule states the quotes changed (the latest value of each).
    public var states: [RuleStateKey: StoredRuleState]
    /// Alerts fired, each with the sinks to deliver it to.
    public var alerts: [PendingAlert]
    /// Wall-clock time of the commit (the first attempt of each delivery is due then).
    public var now: Timestamp

    public init(provider: String, quotes: [Quote] = [], states: [RuleStateKey: StoredRuleState] = [:],
                alerts: [PendingAlert] = [], now: Timestamp) {
        self.provider = provider
        self.quotes = quotes
        self.states = states
        self.alerts = alerts
        self.now = now
    }

    public var isEmpty: Bool { quotes.isEmpty && states.isEmpty && alerts.isEmpty }
}

/// An alert and the sink names it goes to.
public struct PendingAlert: Sendable, Hashable {
    public var alert: Alert
    public var sinks: [String]
    public init(alert: Alert, sinks: [String]) {
        self.alert = alert
        self.sinks = sinks
    }
}

/// One notification's delivery to one sink (a row of the outbox).
public struct Delivery: Sendable, Hashable {
    /// Where the delivery stands.
    public enum Status: String, Sendable, Hashable, Codable {
        case pending, delivered, dead
        /// Never attempted: a silence covered the alert when it was due (`docs/silences.md`).
        case silenced
    }

    /// What is delivered: an alert, or a notification of another kind.
    public var notification: OutgoingNotification
    public var sink: String
    public var status: Status
    public var attempts: Int
    /// When the notification was queued (wall clock).
    public var createdAt: Timestamp
    /// Pending: when the next attempt is due.
    public var nextAttemptAt: Timestamp?
    public var deliveredAt: Timestamp?
    public var lastError: String?
    /// When a sink's quiet hours last held it, the end of that quiet period (its release);
    /// nil when never held. Kept after the release: the delivery ages from it.
    public var heldUntil: Timestamp?

    public init(notification: OutgoingNotification, sink: String, status: Status, attempts: Int, createdAt: Timestamp,
                nextAttemptAt: Timestamp?, deliveredAt: Timestamp? = nil, lastError: String? = nil, heldUntil: Timestamp? = nil) {
        self.notification = notification
        self.sink = sink
        self.status = status
        self.attempts = attempts
        self.createdAt = createdAt
        self.nextAttemptAt = nextAttemptAt
        self.deliveredAt = deliveredAt
        self.lastError = lastError
        self.heldUntil = heldUntil
    }

    /// Whether this attempt is the release of a delivery quiet hours held: it is due exactly
    /// at the end of the quiet period that held it (a retry after a failed release is not).
    public var isQuietRelease: Bool { heldUntil != nil && heldUntil == nextAttemptAt }

    /// What `max_age` counts from: the queue time, or the latest release from quiet hours
    /// (time held does not age a delivery).
    public var ageOrigin: Timestamp { max(createdAt, heldUntil ?? createdAt) }
}

/// The result of one delivery attempt.
public struct DeliveryOutcome: Sendable, Hashable {
    /// What to do with the delivery.
    public enum Result: Sendable, Hashable {
        case delivered
        /// Try again at that time.
        case retry(at: Timestamp, error: String)
        /// Give up: a permanent failure or too old.
        case dead(error: String)
        /// Not attempted: the silence with this id covers the alert. Final, like delivered.
        case silenced(by: String)
        /// Not attempted: the sink is in its quiet hours, which end at that time. Still
        /// pending, due then; no attempt is counted.
        case held(until: Timestamp)
    }

    /// The delivered notification's id (an alert's id for an alert).
    public var notificationID: String
    public var sink: String
    public var at: Timestamp
    public var result: Result

    public init(notificationID: String, sink: String, at: Timestamp, result: Result) {
        self.notificationID = notificationID
        self.sink = sink
        self.at = at
        self.result = result
    }
}

/// An alert from the log with its deliveries.
public struct AlertRecord: Sendable, Hashable {
    public var alert: Alert
    public var deliveries: [Delivery]
    public init(alert: Alert, deliveries: [Delivery]) {
        self.alert = alert
        self.deliveries = deliveries
    }
}
