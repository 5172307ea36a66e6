#if canImport(Glibc)
import Glibc
#endif
import CMosquitto
import Dispatch
import PriceWatchCore
import Synchronization

/// One `mqtt` sink's connection to its broker through libmosquitto.
///
/// libmosquitto's calls may block (a DNS lookup, a TCP connect), so none runs on Swift's
/// cooperative pool: every call is made on this connection's serial dispatch queue, and the
/// network loop (reads, writes, keep-alive, PUBACKs, reconnects) on the thread of its
/// ``MosquittoNetworkLoop``, which waits with poll(2) rather than libmosquitto's select(2).
/// Its callbacks resume the waiting tasks through continuations.
///
/// The session is persistent (`clean_session` false under a stable client id), with the last
/// will `PREFIX/status` = `offline` (retained); every CONNACK publishes `online` (retained),
/// subscribes to Home Assistant's birth topic and republishes discovery and the mirrored
/// state. The connection starts at first use; ``close()`` ends it (the sink's owner calls it
/// when the sink is let go).
final class MosquittoConnection: @unchecked Sendable {
    // @unchecked: `client` is read and written on `queue` only; everything else is immutable
    // or in the `state` mutex.

    /// Where the connection stands.
    enum Phase: Equatable {
        /// Not started, or the last start failed: the next use starts it.
        case idle
        /// Started: waiting for a CONNACK, or reconnecting after a loss.
        case connecting
        case connected
        case closed
    }

    /// What a wait ended with.
    enum Outcome: Sendable {
        case done
        case failed(SinkError)
    }

    /// A continuation resumed once, by whichever comes first (callback, deadline, cancellation).
    final class Waiter: Sendable {
        private let continuation: Mutex<CheckedContinuation<Outcome, Never>?>

        init(_ continuation: CheckedContinuation<Outcome, Never>) {
            self.continuation = Mutex(continuation)
        }

        func resume(_ outcome: Outcome) {
            continuation.withLock { $0.take() }?.resume(returning: outcome)
        }
    }

    private struct State {
        var phase: Phase = .idle
        var connectWaiters: [ObjectIdentifier: Waiter] = [:]
        var ackWaiters: [Int32: Waiter] = [:]
        /// What Home Assistant is told of, and the state last published (or to publish at
        /// the next CONNACK).
        var symbols: [String] = []
        var rules: [String] = []
        var prices: [String: String] = [:]
        var ruleStates: [String: Bool] = [:]
        /// While closing: the `offline` message's id and what its PUBACK signals, and what the
        /// disconnect callback signals.
        var closingAcknowledgement: (mid: Int32, signal: DispatchSemaphore)?
        var disconnection: DispatchSemaphore?
    }

    let identity: String
    let settings: MQTTSettings
    let topics: MQTTTopics
    private let queue: DispatchQueue
    private let state = Mutex(State())
    /// The libmosquitto client, created at the first start: on `queue` only.
    private var client: OpaquePointer?
    /// The network loop, once connected: set and cleared on `queue`; read anywhere (the
    /// CONNACK callback turns its reconnection off).
    private let networkLoop = Mutex<MosquittoNetworkLoop?>(nil)
    /// What this connection last published of the mirrored state: on `queue` only.
    private var publishedPrices: [String: String] = [:]
    private var publishedRuleStates: [String: Bool] = [:]

    init(identity: String, settings: MQTTSettings) {
        self.identity = identity
        self.settings = settings
        self.topics = settings.topics
        self.queue = DispatchQueue(label: "pricewatch.mqtt.\(identity)")
    }

    var phase: Phase { state.withLock { $0.phase } }

    // MARK: Delivery

    /// Publishes `payload` on `topic` with QoS 1 and returns once the broker acknowledged it
    /// (PUBACK); throws a retryable ``SinkError`` when the connection or the PUBACK does not
    /// come within the timeout, a permanent one when the broker refuses the credentials.
    func publishAcknowledged(topic: String, payload: String, retain: Bool = false) async throws(SinkError) {
        let deadline = DispatchTime.now() + .nanoseconds(Int(settings.timeout.nanoseconds))
        try await connect(until: deadline)
        let outcome = await wait(until: deadline, timeout: "the broker did not acknowledge (PUBACK) the message on \(topic) within \(settings.timeout)") { waiter in
            self.queue.async {
                guard let client = self.client else {
                    waiter.resume(.failed(self.error(retryable: true, "the connection was closed")))
                    return
                }
                // The lock is held from the publish to the registration, so the PUBACK callback
                // (which takes it) cannot run in between and miss the waiter.
                let failure: Int32? = self.state.withLock { state in
                    var mid: Int32 = 0
                    let rc = Self.publish(client, topic: topic, payload: payload, qos: 1, retain: retain, mid: &mid)
                    guard rc == MOSQ_ERR_SUCCESS.rawValue else { return rc }
                    state.ackWaiters[mid] = waiter
                    return nil
                }
                if let failure {
                    waiter.resume(.failed(self.error(retryable: Self.isRetryable(failure), "could not publish on \(topic): \(Self.describe(failure))")))
                }
                self.wakeNetworkLoop()
            }
        }
        if case .failed(let error) = outcome { throw error }
    }

    /// Starts the connection if it is idle and waits for its CONNACK until `deadline`.
    private func connect(until deadline: DispatchTime) async throws(SinkError) {
        let outcome = await wait(until: deadline, timeout: "no connection to \(settings.brokerDisplay) within \(settings.timeout)") { waiter in
            let start: Bool? = self.state.withLock { state in
                switch state.phase {
                case .connected:
                    return nil
                case .closed:
                    return nil
                case .idle:
                    state.phase = .connecting
                    state.connectWaiters[ObjectIdentifier(waiter)] = waiter
                    return true
                case .connecting:
                    state.connectWaiters[ObjectIdentifier(waiter)] = waiter
                    return false
                }
            }
            switch start {
            case nil:
                waiter.resume(self.phase == .closed ? .failed(self.error(retryable: true, "the connection was closed")) : .done)
            case true?:
                self.queue.async { self.start() }
            case false?:
                break
            }
        }
        if case .failed(let error) = outcome { throw error }
    }

    /// Runs `register` with a waiter and waits for it; the deadline resumes it with a retryable
    /// error saying `timeout`, cancellation with a retryable one saying so.
    private func wait(until deadline: DispatchTime, timeout: String, _ register: @escaping @Sendable (Waiter) -> Void) async -> Outcome {
        let timeoutError = error(retryable: true, timeout)
        let cancelled = error(retryable: true, "the attempt was cancelled")
        let holder = Mutex<Waiter?>(nil)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let waiter = Waiter(continuation)
                holder.withLock { $0 = waiter }
                // Not on `queue`, which a blocking connect may hold past the deadline.
                DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self] in
                    waiter.resume(.failed(timeoutError))
                    self?.forget(waiter)
                }
                register(waiter)
                if Task.isCancelled { waiter.resume(.failed(cancelled)) }
            }
        } onCancel: {
            guard let waiter = holder.withLock({ $0 }) else { return }
            waiter.resume(.failed(cancelled))
            forget(waiter)
        }
    }

    private func forget(_ waiter: Waiter) {
        state.withLock { state in
            state.connectWaiters[ObjectIdentifier(waiter)] = nil
            if let mid = state.ackWaiters.first(where: { $0.value === waiter })?.key { state.ackWaiters[mid] = nil }
        }
    }

    // MARK: Mirrored state

    func watch(symbols: [String], rules: [String]) {
        let changed: (removedSymbols: [String], removedRules: [String])? = state.withLock { state in
            guard state.symbols != symbols || state.rules != rules else { return nil }
            let removed = (Array(Set(state.symbols).subtracting(symbols)).sorted(), Array(Set(state.rules).subtracting(rules)).sorted())
            state.symbols = symbols
            state.rules = rules
            return removed
        }
        guard let changed else { return }
        startIfIdle()
        queue.async {
            guard self.settings.discovery, let client = self.client, self.phase == .connected else { return }
            // A removed entity's config is cleared (an empty retained payload), so Home Assistant drops it.
            for symbol in changed.removedSymbols { Self.publish(client, topic: self.topics.priceConfig(symbol: symbol), payload: "", retain: true) }
            for rule in changed.removedRules { Self.publish(client, topic: self.topics.ruleConfig(rule: rule), payload: "", retain: true) }
            self.publishDiscovery(client)
            self.wakeNetworkLoop()
        }
    }

    func publish(prices quotes: [Quote]) {
        let changed: [(String, String)] = state.withLock { state in
            var latest: [String: Quote] = [:]
            for quote in quotes where (latest[quote.symbol]?.time ?? .init(milliseconds: .min)) <= quote.time { latest[quote.symbol] = quote }
            var changed: [(String, String)] = []
            for (symbol, quote) in latest.sorted(by: { $0.key < $1.key }) {
                let payload = quote.price.description
                if state.prices[symbol] != payload {
                    state.prices[symbol] = payload
                    changed.append((symbol, payload))
                }
            }
            return changed
        }
        guard !changed.isEmpty else { return }
        startIfIdle()
        queue.async {
            guard let client = self.client, self.phase == .connected else { return }
            // The value wanted now, unless already out (``announce(_:)`` may have sent it).
            let wanted = self.state.withLock { state in changed.map { ($0.0, state.prices[$0.0]) } }
            for case let (symbol, payload?) in wanted where self.publishedPrices[symbol] != payload {
                Self.publish(client, topic: self.topics.price(symbol: symbol), payload: payload, retain: true)
                self.publishedPrices[symbol] = payload
            }
            self.wakeNetworkLoop()
        }
    }

    func publish(ruleStates: [String: Bool]) {
        let changed: [(String, Bool)] = state.withLock { state in
            var changed: [(String, Bool)] = []
            for (rule, fired) in ruleStates.sorted(by: { $0.key < $1.key }) where state.ruleStates[rule] != fired {
                state.ruleStates[rule] = fired
                changed.append((rule, fired))
            }
            return changed
        }
        guard !changed.isEmpty else { return }
        startIfIdle()
        queue.async {
            guard let client = self.client, self.phase == .connected else { return }
            let wanted = self.state.withLock { state in changed.map { ($0.0, state.ruleStates[$0.0]) } }
            for case let (rule, fired?) in wanted where self.publishedRuleStates[rule] != fired {
                self.publishRuleState(client, rule: rule, fired: fired)
            }
            self.wakeNetworkLoop()
        }
    }

    private func startIfIdle() {
        let start = state.withLock { state in
            guard state.phase == .idle else { return false }
            state.phase = .connecting
            return true
        }
        if start { queue.async { self.start() } }
    }

    // MARK: On the queue

    /// Creates the client if needed, connects (blocking, on this queue) and starts the
    /// network thread; a failure to connect fails the waiters and leaves the connection idle.
    private func start() {
        dispatchPrecondition(condition: .onQueue(queue))
        if phase == .closed { return }
        if let loop = networkLoop.withLock({ $0.take() }) {
            // After a refused CONNACK: the loop no longer reconnects; end it.
            loop.stop()
        }
        if client == nil {
            // An older connection under this client id (the sink's settings changed at a
            // reload) goes first, its `offline` before our `online`. Bounded: two connections
            // retiring each other at once each wait out the bound, then go on.
            for retired in MQTTConnectionPool.shared.retire(clientID: settings.clientID, keeping: self) {
                _ = retired.wait(timeout: .now() + Self.closingWait + Self.closingWait + .seconds(1))
            }
            MosquittoLibrary.initialise()
            guard let created = mosquitto_new(settings.clientID, !settings.announcesAvailability, Unmanaged.passUnretained(self).toOpaque()) else {
                fail(error(retryable: true, "could not create the MQTT client: \(Self.describe(MOSQ_ERR_ERRNO.rawValue))"))
                return
            }
            client = created
            if let failure = configure(created) {
                fail(failure)
                return
            }
        }
        guard let client else { return }
        let rc = mosquitto_connect(client, settings.host, Int32(settings.port), Self.keepAliveSeconds)
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            fail(error(retryable: Self.isRetryable(rc), "could not connect to \(settings.brokerDisplay): \(Self.describe(rc))"))
            return
        }
        guard let loop = MosquittoNetworkLoop(client: client, name: "pricewatch-mqtt-\(identity)") else {
            fail(error(retryable: true, "could not start the MQTT network thread: \(String(cString: strerror(errno)))"))
            return
        }
        networkLoop.withLock { $0 = loop }
    }

    /// Has the network loop write what was just queued.
    private func wakeNetworkLoop() {
        networkLoop.withLock { $0 }?.wake()
    }

    /// Options, credentials, TLS, the last will and the callbacks; an error that no retry can
    /// mend (a refused option) is permanent.
    private func configure(_ client: OpaquePointer) -> SinkError? {
        _ = mosquitto_int_option(client, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311)
        if settings.username != nil || settings.password != nil {
            let rc = mosquitto_username_pw_set(client, settings.username ?? "", settings.password)
            if rc != MOSQ_ERR_SUCCESS.rawValue { return error(retryable: false, "could not set the username and password: \(Self.describe(rc))") }
        }
        if settings.tls {
            let rc = mosquitto_tls_set(client, settings.caFile, settings.caFile == nil ? Self.systemCertificates : nil, nil, nil, nil)
            if rc != MOSQ_ERR_SUCCESS.rawValue {
                return error(retryable: false, "could not set up TLS with \(settings.caFile ?? Self.systemCertificates): \(Self.describe(rc))")
            }
        }
        if settings.announcesAvailability {
            let will = mosquitto_will_set(client, topics.status, Int32(MQTTSink.offline.utf8.count), MQTTSink.offline, 1, true)
            if will != MOSQ_ERR_SUCCESS.rawValue { return error(retryable: false, "could not set the last will on \(topics.status): \(Self.describe(will))") }
        }
        mosquitto_connect_callback_set(client, Self.onConnect)
        mosquitto_disconnect_callback_set(client, Self.onDisconnect)
        mosquitto_publish_callback_set(client, Self.onPublish)
        mosquitto_message_callback_set(client, Self.onMessage)
        return nil
    }

    private func fail(_ failure: SinkError) {
        let waiters = state.withLock { state in
            if state.phase != .closed { state.phase = .idle }
            let waiters = Array(state.connectWaiters.values)
            state.connectWaiters = [:]
            return waiters
        }
        for waiter in waiters { waiter.resume(.failed(failure)) }
    }

    /// After a CONNACK: `online`, the birth subscription, discovery and every mirrored value.
    private func announce(_ client: OpaquePointer) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard settings.announcesAvailability else { return }
        Self.publish(client, topic: topics.status, payload: MQTTSink.online, retain: true)
        if settings.discovery {
            _ = mosquitto_subscribe(client, nil, topics.homeAssistantStatus, 1)
            publishDiscovery(client)
        }
        let (prices, rules) = state.withLock { ($0.prices, $0.ruleStates) }
        for (symbol, payload) in prices.sorted(by: { $0.key < $1.key }) {
            Self.publish(client, topic: topics.price(symbol: symbol), payload: payload, retain: true)
        }
        publishedPrices = prices
        for (rule, fired) in rules.sorted(by: { $0.key < $1.key }) { publishRuleState(client, rule: rule, fired: fired) }
    }

    private func publishDiscovery(_ client: OpaquePointer) {
        guard settings.discovery else { return }
        let (symbols, rules) = state.withLock { ($0.symbols, $0.rules) }
        for symbol in symbols {
            Self.publish(client, topic: topics.priceConfig(symbol: symbol), payload: HomeAssistantDiscovery.priceSensor(symbol: symbol, topics: topics), retain: true)
        }
        for rule in rules {
            Self.publish(client, topic: topics.ruleConfig(rule: rule), payload: HomeAssistantDiscovery.ruleSensor(rule: rule, topics: topics), retain: true)
        }
    }

    private func publishRuleState(_ client: OpaquePointer, rule: String, fired: Bool) {
        publishedRuleStates[rule] = fired
        Self.publish(client, topic: topics.ruleState(rule: rule),
                     payload: fired ? HomeAssistantDiscovery.ruleFired : HomeAssistantDiscovery.ruleArmed, retain: true)
    }

    /// `offline` (retained), DISCONNECT, the network thread joined, the client freed; the
    /// connection cannot be used again. Runs on the queue, which keeps `self` (the callbacks'
    /// user data) alive until the client is destroyed. While connected it waits (on the
    /// queue, up to ``closingWait`` each) for the PUBACK of `offline` and for the
    /// disconnection, so that both reach the broker before the socket closes.
    ///
    /// - Parameter done: signalled once the client is destroyed (or there was none).
    func close(done: DispatchSemaphore? = nil) {
        let wasConnected = state.withLock { state in
            defer { state.phase = .closed }
            return state.phase == .connected
        }
        queue.async {
            let waiters = self.state.withLock { state in
                let waiters = Array(state.connectWaiters.values) + Array(state.ackWaiters.values)
                state.connectWaiters = [:]
                state.ackWaiters = [:]
                return waiters
            }
            for waiter in waiters { waiter.resume(.failed(self.error(retryable: true, "the connection was closed"))) }
            defer { done?.signal() }
            guard let client = self.client else { return }
            if let loop = self.networkLoop.withLock({ $0.take() }) {
                loop.reconnects = false
                let acknowledged = DispatchSemaphore(value: 0)
                let disconnected = DispatchSemaphore(value: 0)
                let published = self.settings.announcesAvailability && self.state.withLock { state in
                    var mid: Int32 = 0
                    let rc = Self.publish(client, topic: self.topics.status, payload: MQTTSink.offline, qos: 1, retain: true, mid: &mid)
                    if rc == MOSQ_ERR_SUCCESS.rawValue { state.closingAcknowledgement = (mid, acknowledged) }
                    return rc == MOSQ_ERR_SUCCESS.rawValue
                }
                loop.wake()
                if wasConnected, published { _ = acknowledged.wait(timeout: .now() + Self.closingWait) }
                self.state.withLock { $0.disconnection = disconnected }
                mosquitto_disconnect(client)
                loop.wake()
                if wasConnected { _ = disconnected.wait(timeout: .now() + Self.closingWait) }
                loop.stop()
            }
            mosquitto_destroy(client)
            self.client = nil
        }
    }

    /// How long closing waits for the broker's PUBACK of `offline`, then for the disconnection.
    static let closingWait = DispatchTimeInterval.seconds(2)

    /// Ends the TCP connection without a DISCONNECT, as a crash would: the broker publishes
    /// the last will, and the network thread reconnects. For tests.
    func dropConnectionUncleanly() {
        queue.async {
            guard let client = self.client else { return }
            let socket = mosquitto_socket(client)
            if socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    // MARK: Callbacks, on the network thread

    private static func connection(_ userdata: UnsafeMutableRawPointer?) -> MosquittoConnection? {
        userdata.map { Unmanaged<MosquittoConnection>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let onConnect: pricewatch_mosquitto_status_callback = { _, userdata, rc in
        connection(userdata)?.connected(rc)
    }

    private static let onDisconnect: pricewatch_mosquitto_status_callback = { _, userdata, rc in
        connection(userdata)?.disconnected(rc)
    }

    private static let onPublish: pricewatch_mosquitto_publish_callback = { _, userdata, mid in
        guard let connection = connection(userdata) else { return }
        let (waiter, closing) = connection.state.withLock { state in
            (state.ackWaiters.removeValue(forKey: mid), state.closingAcknowledgement?.mid == mid ? state.closingAcknowledgement?.signal : nil)
        }
        waiter?.resume(.done)
        closing?.signal()
    }

    private static let onMessage: pricewatch_mosquitto_message_callback = { _, userdata, message in
        guard let connection = connection(userdata), let message = message?.pointee, let topic = message.topic else { return }
        let payload = message.payload.map {
            String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen)), as: UTF8.self)
        } ?? ""
        connection.received(topic: String(cString: topic), payload: payload)
    }

    private func connected(_ rc: Int32) {
        if rc == 0 {
            // Connected and announced in one step on the queue: a state update queued before
            // it is left to the announcement, one after it sends only what changed since.
            queue.async {
                let (waiters, open) = self.state.withLock { state in
                    let open = state.phase != .closed
                    if open { state.phase = .connected }
                    let waiters = Array(state.connectWaiters.values)
                    state.connectWaiters = [:]
                    return (waiters, open)
                }
                if open, let client = self.client { self.announce(client) }
                self.wakeNetworkLoop()
                for waiter in waiters { waiter.resume(.done) }
            }
            return
        }
        // A refused CONNACK: the network thread would retry it forever; stop it, and let the
        // next delivery start again (bad credentials are permanent, an unavailable server not).
        let reason = String(cString: mosquitto_connack_string(rc))
        let failure = error(retryable: rc == 3, "\(settings.brokerDisplay) refused the connection: \(reason)")
        networkLoop.withLock { $0 }?.reconnects = false
        queue.async {
            if let client = self.client { mosquitto_disconnect(client) }
            self.wakeNetworkLoop()
            self.fail(failure)
        }
    }

    private func disconnected(_ rc: Int32) {
        // rc 0: our own DISCONNECT. Otherwise the network thread reconnects by itself.
        let closing = state.withLock { state in
            if state.phase == .connected { state.phase = rc == 0 ? .idle : .connecting }
            return state.disconnection
        }
        closing?.signal()
    }

    private func received(topic: String, payload: String) {
        guard settings.discovery, topic == topics.homeAssistantStatus, payload == "online" else { return }
        // Home Assistant (re)started: it forgets what it was told, so tell it again.
        queue.async {
            guard let client = self.client, self.phase == .connected else { return }
            self.announce(client)
            self.wakeNetworkLoop()
        }
    }

    // MARK: Helpers

    static let keepAliveSeconds: Int32 = 30
    static let systemCertificates = "/etc/ssl/certs"

    @discardableResult
    private static func publish(_ client: OpaquePointer, topic: String, payload: String, qos: Int32 = 1, retain: Bool) -> Int32 {
        var mid: Int32 = 0
        return publish(client, topic: topic, payload: payload, qos: qos, retain: retain, mid: &mid)
    }

    private static func publish(_ client: OpaquePointer, topic: String, payload: String, qos: Int32, retain: Bool, mid: inout Int32) -> Int32 {
        var bytes = Array(payload.utf8)
        let count = Int32(bytes.count)
        return bytes.withUnsafeMutableBytes { buffer in
            mosquitto_publish(client, &mid, topic, count, count == 0 ? nil : buffer.baseAddress, qos, retain)
        }
    }

    /// Whether a libmosquitto error can pass (a connection problem) or not (a bad argument).
    static func isRetryable(_ rc: Int32) -> Bool {
        switch rc {
        case MOSQ_ERR_INVAL.rawValue, MOSQ_ERR_PAYLOAD_SIZE.rawValue, MOSQ_ERR_NOT_SUPPORTED.rawValue,
             MOSQ_ERR_MALFORMED_UTF8.rawValue, MOSQ_ERR_QOS_NOT_SUPPORTED.rawValue, MOSQ_ERR_OVERSIZE_PACKET.rawValue,
             MOSQ_ERR_AUTH.rawValue, MOSQ_ERR_ACL_DENIED.rawValue:
            return false
        default:
            return true
        }
    }

    /// libmosquitto's words for `rc`; for a system error, the system's (`Connection refused`).
    static func describe(_ rc: Int32) -> String {
        if rc == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return String(cString: mosquitto_strerror(rc))
    }

    /// `mqtt/NAME: detail`, the password blanked out.
    func error(retryable: Bool, _ detail: String) -> SinkError {
        SinkError(retryable: retryable, settings.redacted("\(identity): \(detail)"))
    }
}

private extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
