import Logging
import PriceWatchCore
import PriceWatchSystemd

/// Delivers the outbox: picks due deliveries from the store, hands each to its sink, and
/// records the outcome (delivered, retry later, dead letter).
///
/// - At least once: a delivery leaves the outbox only after its sink succeeded; a crash
///   between the two delivers it again on restart, with the same alert id.
/// - A slow or dead sink never delays the others: each sink has its own limit of deliveries in
///   flight, and the loop keeps serving other sinks while one is busy.
/// - Retries, backoff and dead letters follow the ``RetrySchedule``, once, for every sink.
public actor DeliveryDispatcher<C: Clock<Duration>> {
    private let store: any AlertStore
    private let sinks: SinkRegistry
    private let doorbell: Doorbell
    private let clock: C
    private let wallClock: @Sendable () -> Timestamp
    private let schedule: RetrySchedule
    private let perSinkLimit: Int
    private let logger: Logger
    private var inFlight: Set<DeliveryKey> = []
    private var inFlightPerSink: [String: Int] = [:]
    private var stopping = false
    /// Deliveries that finished while the outbox was being read: that read may still list them
    /// as pending, and must not start them again (the actor is reentrant across the await).
    private var finishedDuringRead: Set<DeliveryKey>?

    struct DeliveryKey: Hashable {
        let alertID: String
        let sink: String
    }

    public init(store: any AlertStore, sinks: SinkRegistry, doorbell: Doorbell, clock: C,
                wallClock: @escaping @Sendable () -> Timestamp, schedule: RetrySchedule = RetrySchedule(),
                perSinkLimit: Int = 4, logger: Logger) {
        self.store = store
        self.sinks = sinks
        self.doorbell = doorbell
        self.clock = clock
        self.wallClock = wallClock
        self.schedule = schedule
        self.perSinkLimit = perSinkLimit
        self.logger = logger
    }

    /// Stops taking new deliveries; ``run(shutdownGrace:)`` then waits for those in flight.
    public func stop() {
        stopping = true
        doorbell.ring()
    }

    /// Runs until ``stop()`` (then waits up to `shutdownGrace` for deliveries in flight) or
    /// until the task is cancelled.
    public func run(shutdownGrace: Duration = .seconds(10)) async {
        await withTaskGroup(of: Void.self) { group in
            while !stopping && !Task.isCancelled {
                let seen = doorbell.generation
                let (started, blocked) = await startDueDeliveries(group: &group)
                if started > 0 { continue }
                // Due deliveries that wait for a slot are woken by the ring of a finishing one.
                let deadline = blocked > 0 ? clock.now.advanced(by: .seconds(1)) : await nextWakeUp()
                await doorbell.wait(after: seen, until: deadline, on: clock)
            }
            guard !inFlight.isEmpty else { return }
            logger.info("waiting up to \(shutdownGrace) for \(inFlight.count) deliveries in flight")
            let deadline = clock.now.advanced(by: shutdownGrace)
            while !inFlight.isEmpty, clock.now < deadline, !Task.isCancelled {
                let seen = doorbell.generation
                await doorbell.wait(after: seen, until: deadline, on: clock)
            }
            if !inFlight.isEmpty {
                logger.warning("\(inFlight.count) deliveries still in flight at shutdown; they stay pending and are retried on the next start")
                group.cancelAll()
            }
        }
    }

    /// The clock instant of the next due delivery, if there is one.
    private func nextWakeUp() async -> C.Instant? {
        guard let next = try? await store.nextPendingAttempt() else { return nil }
        let wait = max(next.milliseconds - wallClock().milliseconds, 0)
        // Wake at least every minute anyway, so a clock step of the wall clock is noticed.
        return clock.now.advanced(by: .milliseconds(min(wait, 60_000)))
    }

    /// Starts what is due and has a free slot; returns how many started and how many due
    /// deliveries wait (in flight already, or their sink at its limit).
    private func startDueDeliveries(group: inout TaskGroup<Void>) async -> (started: Int, blocked: Int) {
        let due: [Delivery]
        finishedDuringRead = []
        defer { finishedDuringRead = nil }
        do {
            due = try await store.pendingDeliveries(dueBy: wallClock(), limit: 256)
        } catch {
            logger.error("could not read the outbox: \(error)")
            return (0, 0)
        }
        var started = 0
        var blocked = 0
        for delivery in due {
            let key = DeliveryKey(alertID: delivery.alert.id, sink: delivery.sink)
            if finishedDuringRead?.contains(key) == true { continue }
            guard !inFlight.contains(key), inFlightPerSink[delivery.sink, default: 0] < perSinkLimit else {
                blocked += 1
                continue
            }
            inFlight.insert(key)
            inFlightPerSink[delivery.sink, default: 0] += 1
            started += 1
            group.addTask { await self.attempt(delivery, key: key) }
        }
        return (started, blocked)
    }

    private func attempt(_ delivery: Delivery, key: DeliveryKey) async {
        let result: DeliveryOutcome.Result
        let metadata: Logger.Metadata = ["alert_id": "\(delivery.alert.id)", "sink": "\(delivery.sink)",
                                         "rule": "\(delivery.alert.rule)", "symbol": "\(delivery.alert.symbol)"]
        if let sink = sinks.sink(named: delivery.sink) {
            do {
                try await sink.deliver(delivery.alert)
                result = .delivered
            } catch {
                result = schedule.afterFailure(error, attempt: delivery.attempts + 1, createdAt: delivery.createdAt,
                                               now: wallClock(), random: Double.random(in: 0..<1))
            }
        } else {
            let error = SinkError(retryable: true, "no sink named '\(delivery.sink)' in the configuration")
            result = schedule.afterFailure(error, attempt: delivery.attempts + 1, createdAt: delivery.createdAt,
                                           now: wallClock(), random: Double.random(in: 0..<1))
        }
        switch result {
        case .delivered:
            logger.debug("delivered", metadata: metadata)
        case .retry(let at, let error):
            logger.warning("delivery failed, retrying at \(at): \(error)", metadata: metadata)
        case .dead(let error):
            logger.error("delivery dead-lettered: \(error)",
                         metadata: metadata.merging([OperatorEvent.metadataKey: OperatorEvent.deliveryDeadLettered.metadataValue]) { $1 })
        }
        do {
            try await store.recordAttempt(DeliveryOutcome(alertID: delivery.alert.id, sink: delivery.sink, at: wallClock(), result: result))
        } catch {
            logger.error("could not record a delivery attempt: \(error); it will be attempted again", metadata: metadata)
        }
        finished(key)
    }

    private func finished(_ key: DeliveryKey) {
        finishedDuringRead?.insert(key)
        inFlight.remove(key)
        inFlightPerSink[key.sink, default: 1] -= 1
        doorbell.ring()
    }
}
