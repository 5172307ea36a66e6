/// The durable state of the daemon: quote history, rule states, the alert log and the outbox.
///
/// This is the only way the engine and the dispatcher touch storage. Implementations must:
///
/// - apply a ``StoreCommit`` atomically: its quotes, rule states, alerts and deliveries are all
///   written, or none is. A crash therefore never leaves an alert without the state that
///   produced it, or the reverse;
/// - never block the caller's thread on I/O: the work runs on the store's own executor;
/// - keep every delivery until it is delivered or dead; ``pendingDeliveries(dueBy:limit:)``
///   returns what is due, oldest first, across restarts;
/// - be safe to call from any task.
public protocol AlertStore: Sendable {
    /// Every stored rule state, keyed by rule id and symbol, with the fingerprint it was
    /// computed under.
    func ruleStates() async throws -> [RuleStateKey: StoredRuleState]

    /// The stored quotes of one provider and symbol at or after `since`, oldest first, plus
    /// the newest one before `since` (the anchor a window base may need) and always the newest
    /// one overall (for repeat detection).
    func history(provider: String, symbol: String, since: Timestamp) async throws -> [HistoryPoint]

    /// Writes one poll's outcome in one transaction.
    func commit(_ commit: StoreCommit) async throws

    /// Deletes quotes older than `cutoff`, keeping per provider and symbol the newest quote at
    /// or before it. Returns how many rows went.
    @discardableResult
    func pruneHistory(before cutoff: Timestamp) async throws -> Int

    /// Deliveries still pending whose next attempt is at or before `dueBy`, oldest first.
    func pendingDeliveries(dueBy: Timestamp, limit: Int) async throws -> [Delivery]

    /// Deliveries to `sink` still pending whose next attempt is at or before `dueBy`, in the
    /// order of ``pendingDeliveries(dueBy:limit:)``. A sink whose receiver is down never hides
    /// another sink's due deliveries behind its own.
    func pendingDeliveries(sink: String, dueBy: Timestamp, limit: Int) async throws -> [Delivery]

    /// Every sink with pending deliveries, with the earliest next attempt among them.
    func pendingSinks() async throws -> [String: Timestamp]

    /// The earliest next attempt of any pending delivery, if there is one.
    func nextPendingAttempt() async throws -> Timestamp?

    /// How many deliveries are pending (due or not), counted without reading them: cheap
    /// enough for a status line however long the outbox grows.
    func pendingDeliveryCount() async throws -> Int

    /// Records the outcome of one delivery attempt.
    func recordAttempt(_ outcome: DeliveryOutcome) async throws

    /// Records the outcomes of one attempt at a group, in one transaction.
    func recordAttempts(_ outcomes: [DeliveryOutcome]) async throws

    /// Deletes alerts queued (wall clock) before `cutoff` whose deliveries are all delivered
    /// or dead, with those deliveries. An alert with a pending delivery is always kept.
    /// Returns how many alerts went.
    @discardableResult
    func pruneAlerts(before cutoff: Timestamp) async throws -> Int

    /// Deletes the states of rule-and-symbol pairs not in `live` (rules removed from the
    /// configuration, symbols removed from a rule) whose last alert is older than
    /// `lastAlertBefore` (quote time) or that never alerted. Returns how many went.
    @discardableResult
    func pruneRuleStates(keeping live: Set<RuleStateKey>, lastAlertBefore: Timestamp) async throws -> Int

    /// The alert log since `since` (by alert time, newest last), with each alert's deliveries.
    func alerts(since: Timestamp?) async throws -> [AlertRecord]
}

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

/// One alert's delivery to one sink (a row of the outbox).
public struct Delivery: Sendable, Hashable {
    /// Where the delivery stands.
    public enum Status: String, Sendable, Hashable, Codable {
        case pending, delivered, dead
    }

    public var alert: Alert
    public var sink: String
    public var status: Status
    public var attempts: Int
    /// When the alert was queued (wall clock).
    public var createdAt: Timestamp
    /// Pending: when the next attempt is due.
    public var nextAttemptAt: Timestamp?
    public var deliveredAt: Timestamp?
    public var lastError: String?

    public init(alert: Alert, sink: String, status: Status, attempts: Int, createdAt: Timestamp,
                nextAttemptAt: Timestamp?, deliveredAt: Timestamp? = nil, lastError: String? = nil) {
        self.alert = alert
        self.sink = sink
        self.status = status
        self.attempts = attempts
        self.createdAt = createdAt
        self.nextAttemptAt = nextAttemptAt
        self.deliveredAt = deliveredAt
        self.lastError = lastError
    }
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
    }

    public var alertID: String
    public var sink: String
    public var at: Timestamp
    public var result: Result

    public init(alertID: String, sink: String, at: Timestamp, result: Result) {
        self.alertID = alertID
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
