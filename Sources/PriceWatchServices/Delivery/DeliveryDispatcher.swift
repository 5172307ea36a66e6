import Logging
import PriceWatchCore

/// Delivers the outbox: picks due deliveries from the store, sink by sink, hands each (or each
/// group) to its sink, and records the outcome (delivered, retry later, dead letter).
///
/// - At least once: a delivery leaves the outbox only after its sink succeeded; a crash
///   between the two delivers it again on restart, with the same alert id.
/// - A slow or dead sink never delays the others: the outbox is read per sink, each sink has
///   its own limit of deliveries in flight (`concurrency`, default `SinkConfiguration.defaultConcurrency`), and the loop keeps
///   serving other sinks while one is busy.
/// - Grouping (`group_wait`) follows the ``DeliveryBatchPlanner``: a group is one attempt, and
///   its outcome is recorded for every alert of it, in one transaction.
/// - Retries, backoff and dead letters follow the ``RetrySchedule``, once, for every sink; a
///   sink's `max_age` replaces the schedule's maximum age.
/// - Quiet hours (a sink's `quiet`): what falls due during them is held, still pending, until
///   they end, with no attempt counted (alerts of `urgent` rules and test messages excepted);
///   at the end the held alerts go out as one group, and their age for `max_age` counts from
///   then. The hold is the outbox row itself, so a restart loses nothing.
/// - Rate limits (a sink's `rate_limit`): at most that many attempts in any window of its
///   length; what the window has no room for stays pending until it moves on.
/// - ``stop()`` stops taking new deliveries at once; those in flight get a bounded grace.
///
/// What each pass attempts, records or holds is decided by a pure ``DeliveryPipeline`` of
/// stages (silences, quiet hours, the rate limit, grouping); this actor reads the outbox,
/// keeps the slots and carries out the pipeline's actions.
public actor DeliveryDispatcher<C: Clock<Duration>> {
    private let store: any OutboxStore
    private let sinks: SinkRegistry
    private let doorbell: Doorbell
    private let clock: C
    private let wallClock: @Sendable () -> Timestamp
    private let schedule: RetrySchedule
    private let perSinkLimit: Int
    private let maximumGroupSize: Int
    private let logger: Logger
    private let silenceGate: SilenceGate?
    private let pipeline: DeliveryPipeline
    private let urgentRules: @Sendable () -> Set<String>
    /// When each sink's recent attempts started, for its rate limit. In memory: after a
    /// restart a sink's window starts empty.
    private var recentStarts: [String: [Timestamp]] = [:]
    private var inFlight: Set<DeliveryKey> = []
    /// Batches (single deliveries or groups) in flight per sink.
    private var batchesInFlight: [String: Int] = [:]
    private var stopping = false
    /// Deliveries that finished while the outbox was being read: that read may still list them
    /// as pending, and must not start them again (the actor is reentrant across the await).
    private var finishedDuringRead: Set<DeliveryKey>?

    struct DeliveryKey: Hashable {
        let notificationID: String
        let sink: String
    }

    /// - Parameters:
    ///   - schedule: retries and dead letters; a sink's `max_age` overrides `maximumAge`.
    ///   - perSinkLimit: deliveries in flight per sink when its settings give no `concurrency`.
    ///   - maximumGroupSize: the most alerts one group carries.
    ///   - silenceGate: the operator's silences; a due alert one covers is recorded as
    ///     silenced instead of attempted (nil: nothing is silenced).
    ///   - pipeline: the stages that decide what each pass attempts, records or holds.
    ///   - urgentRules: the rules whose alerts quiet hours never hold (the running
    ///     configuration's).
    public init(store: any OutboxStore, sinks: SinkRegistry, doorbell: Doorbell, clock: C,
                wallClock: @escaping @Sendable () -> Timestamp, schedule: RetrySchedule = RetrySchedule(),
                perSinkLimit: Int = SinkConfiguration.defaultConcurrency, maximumGroupSize: Int = 100, logger: Logger,
                silenceGate: SilenceGate? = nil, pipeline: DeliveryPipeline = .standard,
                urgentRules: @escaping @Sendable () -> Set<String> = { [] }) {
        self.store = store
        self.sinks = sinks
        self.doorbell = doorbell
        self.clock = clock
        self.wallClock = wallClock
        self.schedule = schedule
        self.perSinkLimit = perSinkLimit
        self.maximumGroupSize = maximumGroupSize
        self.logger = logger
        self.silenceGate = silenceGate
        self.pipeline = pipeline
        self.urgentRules = urgentRules
    }

    /// Stops taking new deliveries; ``run(shutdownGrace:)`` then waits for those in flight.
    public func stop() {
        stopping = true
        doorbell.ring()
    }

    /// How many deliveries are in flight now (for tests and status).
    public var deliveriesInFlight: Int { inFlight.count }

    /// Runs until ``stop()`` (then waits up to `shutdownGrace` for deliveries in flight) or
    /// until the task is cancelled.
    public func run(shutdownGrace: Duration = .seconds(10)) async {
        // Discarding: finished attempts are freed at once, not kept until shutdown.
        await withDiscardingTaskGroup { group in
            while !stopping && !Task.isCancelled {
                let seen = doorbell.generation
                let pass = await startDueDeliveries(group: &group)
                if pass.started > 0 { continue }
                // Due deliveries that wait for a slot are woken by the ring of a finishing one.
                let deadline = pass.blocked > 0 ? clock.now.advanced(by: .seconds(1)) : instant(of: pass.wakeAt)
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

    /// The longest the dispatcher goes without reading the outbox: deliveries another process
    /// queued (`pricewatch requeue`) ring no doorbell, and a step of the wall clock moves due
    /// times. One cheap query (`pendingSinks`) per look.
    public static var outboxRecheck: Duration { .seconds(5) }

    /// The clock instant of a wall-clock time, at most ``outboxRecheck`` away (nil: nothing is
    /// due, so just that).
    private func instant(of wall: Timestamp?) -> C.Instant? {
        let recheck = Self.outboxRecheck.components.seconds * 1000
        let wait = wall.map { max($0.milliseconds - wallClock().milliseconds, 0) } ?? recheck
        return clock.now.advanced(by: .milliseconds(min(wait, recheck)))
    }

    private struct Pass {
        var started = 0
        /// Sinks with due deliveries that wait for a slot.
        var blocked = 0
        /// The earliest time something not yet due falls due.
        var wakeAt: Timestamp?

        mutating func wake(at time: Timestamp) {
            wakeAt = min(wakeAt ?? time, time)
        }
    }

    /// Starts what is due and has a free slot, sink by sink: the ``DeliveryPipeline``
    /// decides, this carries out its actions.
    private func startDueDeliveries(group: inout DiscardingTaskGroup) async -> Pass {
        var pass = Pass()
        // Read at most once a pass, and only when an alert is due.
        var passSilences: SilenceSet?
        finishedDuringRead = []
        defer { finishedDuringRead = nil }
        let now = wallClock()
        let pendingSinks: [String: Timestamp]
        do {
            pendingSinks = try await store.pendingSinks()
        } catch {
            logger.error("could not read the outbox: \(error)")
            return pass
        }
        for (sink, earliest) in pendingSinks.sorted(by: { $0.key < $1.key }) {
            guard !stopping else { break }
            if earliest > now {
                pass.wake(at: earliest)
                continue
            }
            let settings = sinks.settings(named: sink)
            let limit = max(settings.concurrency ?? perSinkLimit, 1)
            guard batchesInFlight[sink, default: 0] < limit else {
                pass.blocked += 1
                continue
            }
            let rowsInFlight = inFlight.count(where: { $0.sink == sink })
            let freeBefore = limit - batchesInFlight[sink, default: 0]
            let groupSize = max(maximumGroupSize, 1)
            let fetch = rowsInFlight + freeBefore * (settings.groupWait == nil ? 1 : groupSize)
            let due: [Delivery]
            do {
                due = try await store.pendingDeliveries(sink: sink, dueBy: now, limit: fetch)
            } catch {
                logger.error("could not read the outbox of sink '\(sink)': \(error)")
                continue
            }
            if passSilences == nil, let silenceGate, due.contains(where: { $0.notification.kind == .alert }) {
                passSilences = await silenceGate.silences(now: now)
            }
            // Deliveries may have started or finished during the reads: recount after them.
            let candidates = due.filter { delivery in
                let key = DeliveryKey(notificationID: delivery.notification.id, sink: delivery.sink)
                return !inFlight.contains(key) && finishedDuringRead?.contains(key) != true
            }
            // Only the starts still inside the rate window count; none are kept without a limit.
            let window = settings.rateLimit?.windowMilliseconds ?? 0
            recentStarts[sink] = recentStarts[sink]?.filter { now.milliseconds - $0.milliseconds < window }
            let decided = pipeline.run(SinkPass(
                sink: sink, now: now, settings: settings, maximumGroupSize: groupSize, silences: passSilences,
                urgentRules: urgentRules(), recentStarts: recentStarts[sink] ?? [],
                candidates: candidates, freeSlots: limit - batchesInFlight[sink, default: 0]))
            if let wakeAt = decided.wakeAt { pass.wake(at: wakeAt) }
            if decided.waitsForSlot || (candidates.isEmpty && !due.isEmpty) { pass.blocked += 1 }
            await record(decided.actions, sink: sink, now: now)
            for case .attempt(let batch, let released) in decided.actions {
                guard !stopping else { break }
                let keys = batch.map { DeliveryKey(notificationID: $0.notification.id, sink: $0.sink) }
                inFlight.formUnion(keys)
                batchesInFlight[sink, default: 0] += 1
                if settings.rateLimit != nil { recentStarts[sink, default: []].append(now) }
                pass.started += 1
                if released {
                    logger.info("quiet hours over: \(batch.count) held alerts go out together", metadata: ["sink": "\(sink)"])
                }
                group.addTask { await self.attempt(batch, sink: sink, keys: keys) }
            }
        }
        return pass
    }

    /// Records the pipeline's silences and holds (in one transaction), with their log lines.
    /// Not recorded: they stay due and are decided again on the next pass.
    private func record(_ actions: [DeliveryAction], sink: String, now: Timestamp) async {
        var outcomes: [DeliveryOutcome] = []
        var silenced: [(Delivery, Silence)] = []
        var held: [(count: Int, until: Timestamp, quiet: QuietHours)] = []
        for action in actions {
            switch action {
            case .silence(let delivery, let silence):
                outcomes.append(DeliveryOutcome(notificationID: delivery.notification.id, sink: delivery.sink, at: now,
                                                result: .silenced(by: silence.id)))
                silenced.append((delivery, silence))
            case .hold(let deliveries, let until, let quiet):
                outcomes += deliveries.map {
                    DeliveryOutcome(notificationID: $0.notification.id, sink: $0.sink, at: now, result: .held(until: until))
                }
                held.append((deliveries.count, until, quiet))
            case .attempt:
                break
            }
        }
        guard !outcomes.isEmpty else { return }
        do {
            try await store.recordAttempts(outcomes)
        } catch {
            logger.error("could not record silenced or held deliveries: \(error)", metadata: ["sink": "\(sink)"])
            return
        }
        for (delivery, silence) in silenced {
            logger.info("alert silenced by \(silence.id) (\(silence.targetDescription) until \(silence.endsAt.rfc3339))",
                        metadata: ["sink": "\(delivery.sink)", "alert_id": "\(delivery.notification.id)",
                                   "rule": "\(delivery.notification.alert?.rule ?? "")",
                                   "symbol": "\(delivery.notification.alert?.symbol ?? "")"])
        }
        for hold in held {
            logger.info("\(hold.count) deliveries held for quiet hours (\(hold.quiet)) until \(hold.until.rfc3339)",
                        metadata: ["sink": "\(sink)"])
        }
    }

    /// One attempt at a batch: a single delivery, or a group as one message.
    private func attempt(_ batch: [Delivery], sink name: String, keys: [DeliveryKey]) async {
        guard let first = batch.first else { return }
        // A batch of several is a group, and only alerts are grouped (the planner's rule).
        let alerts = batch.compactMap(\.notification.alert)
        var metadata: Logger.Metadata = ["sink": "\(name)"]
        if let alert = first.notification.alert {
            metadata["alert_id"] = "\(alert.id)"
            metadata["rule"] = "\(alert.rule)"
            metadata["symbol"] = "\(alert.symbol)"
        }
        if first.notification.kind != .alert {
            metadata["notification_id"] = "\(first.notification.id)"
            metadata["kind"] = "\(first.notification.kind)"
        }
        if batch.count > 1 { metadata["group_size"] = "\(batch.count)" }
        // A group shares one history: its oldest queue time and its most attempts decide. Time
        // held for quiet hours does not count towards `max_age`: a held delivery ages from its
        // release, through every retry after it.
        let createdAt = batch.map(\.ageOrigin).min() ?? first.createdAt
        let attempt = (batch.map(\.attempts).max() ?? 0) + 1
        let failure: SinkError?
        if let sink = sinks.sink(named: name) {
            metadata["sink"] = "\(sink.identity)"
            do {
                if batch.count == 1 {
                    try await sink.deliver(first.notification)
                } else if first.notification.kind == .news, let group = NewsGroup.notification(of: batch.map(\.notification)) {
                    // Headlines grouped by `group_wait`: one message listing them.
                    try await sink.deliver(group)
                } else {
                    try await sink.deliver(alerts)
                }
                failure = nil
            } catch {
                failure = error
            }
        } else {
            failure = SinkError(retryable: true, "no sink named '\(name)' in the configuration")
        }
        let result: DeliveryOutcome.Result
        if let failure {
            var schedule = self.schedule
            if let maximumAge = sinks.settings(named: name).maximumAge { schedule.maximumAge = maximumAge }
            result = schedule.afterFailure(failure, attempt: attempt, createdAt: createdAt, now: wallClock(),
                                           random: Double.random(in: 0..<1))
        } else {
            result = .delivered
        }
        switch result {
        case .delivered:
            logger.debug("delivered", metadata: metadata)
        case .retry(let at, let error):
            logger.warning("delivery failed, retrying at \(at): \(error)", metadata: metadata)
        case .silenced(let silence):
            logger.info("delivery silenced by \(silence)", metadata: metadata)
        case .held(let until):
            logger.info("delivery held for quiet hours until \(until.rfc3339)", metadata: metadata)
        case .dead(let error):
            logger.error("delivery dead-lettered: \(error)",
                         metadata: metadata.merging([OperatorEvent.metadataKey: OperatorEvent.deliveryDeadLettered.metadataValue]) { $1 })
        }
        let at = wallClock()
        do {
            try await store.recordAttempts(batch.map { DeliveryOutcome(notificationID: $0.notification.id, sink: $0.sink, at: at, result: result) })
        } catch {
            logger.error("could not record a delivery attempt: \(error); it will be attempted again", metadata: metadata)
        }
        finished(keys, sink: name)
    }

    private func finished(_ keys: [DeliveryKey], sink: String) {
        for key in keys {
            finishedDuringRead?.insert(key)
            inFlight.remove(key)
        }
        batchesInFlight[sink, default: 1] -= 1
        if batchesInFlight[sink] == 0 { batchesInFlight[sink] = nil }
        doorbell.ring()
    }
}
