import PriceWatchCore

/// How the receiver behind a sink behaves for one conformance check. Each sink kind's test
/// maps these to its own protocol: for HTTP, 200 / 500 / 429 with `Retry-After` / 404 / an
/// answer that never comes / a closed port; for SMTP, 250 / 451 / - / 550 / a server that
/// never answers / a closed port.
public enum SinkReceiverBehaviour: Sendable, Hashable, CustomStringConvertible {
    /// Accepts every alert.
    case healthy
    /// Refuses for now; a later attempt may succeed (HTTP 500, SMTP 451).
    case temporaryFailure
    /// Refuses for now and says when to come back (HTTP 429 or 503 with `Retry-After`).
    case temporaryFailureRetryAfter(seconds: Int64)
    /// Refuses for good (HTTP 404, SMTP 550 for the recipient).
    case permanentFailure
    /// Accepts the connection and the request, then never answers.
    case hang
    /// Nothing listens (connection refused).
    case unreachable

    /// The behaviour without its parameters, for ``SinkConformanceHarness/supportedBehaviours``.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case healthy, temporaryFailure, temporaryFailureRetryAfter, permanentFailure, hang, unreachable
    }

    public var kind: Kind {
        switch self {
        case .healthy: .healthy
        case .temporaryFailure: .temporaryFailure
        case .temporaryFailureRetryAfter: .temporaryFailureRetryAfter
        case .permanentFailure: .permanentFailure
        case .hang: .hang
        case .unreachable: .unreachable
        }
    }

    public var description: String {
        switch self {
        case .temporaryFailureRetryAfter(let seconds): "temporaryFailureRetryAfter(\(seconds)s)"
        default: kind.rawValue
        }
    }
}

/// What ``SinkConformance`` needs from the test of one sink kind: a way to build that sink
/// pointed at a receiver (a real server on loopback, a real SMTP server, standard output)
/// that behaves as a check asks, and a view of what the receiver got.
///
/// Contract for implementers:
/// - ``makeSink(_:timeout:)`` returns a sink of the real type, configured as a user would
///   (with its secrets: a password, a signing secret, a token in the URL or a header), whose
///   receiver behaves as asked from now on. It may start a fresh receiver per call; the suite
///   calls it once per check and uses that sink only. `timeout` is the sink's deadline for
///   one attempt (the suite passes a short one for the timeout check and a long one for the
///   cancellation check).
/// - ``waitUntilReceiving()`` returns once the current receiver has begun receiving an alert
///   (for ``SinkReceiverBehaviour/hang``: the HTTP request arrived; for SMTP, the connection
///   was accepted or the message data arrived), so that cancelling then cancels an attempt in
///   flight. It must wait for that event, not sleep to guess, and throw when it does not
///   come within a deadline (``waitUntil(_:timeout:_:)``).
/// - ``receivedAlertIDs()`` lists the alert ids the current receiver accepted, in order,
///   read back from what it received (the `webhook-id` header, the `Message-ID`, the line).
/// - ``secrets`` lists every string that must never appear in an error or a log line.
/// - ``logLines()`` returns what the sink logged, if it logs (an empty array otherwise).
public protocol SinkConformanceHarness: Sendable {
    /// The behaviours this sink kind can be put in front of; checks that need another one do
    /// not apply (``SinkConformance/applicable(to:)``).
    static var supportedBehaviours: Set<SinkReceiverBehaviour.Kind> { get }
    /// Strings that must never appear in an error message or a log line.
    var secrets: [String] { get }
    /// A sink whose receiver behaves as `behaviour`, with `timeout` as its deadline.
    func makeSink(_ behaviour: SinkReceiverBehaviour, timeout: Duration) async throws -> any NotificationSink
    /// Returns once the current receiver has begun receiving an alert; throws after a deadline.
    func waitUntilReceiving() async throws
    /// The ids of the alerts the current receiver accepted, in order.
    func receivedAlertIDs() async -> [String]
    /// Lines the sink logged so far.
    func logLines() async -> [String]
}
