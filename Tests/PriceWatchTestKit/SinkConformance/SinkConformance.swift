import PriceWatchCore

/// The checks every ``NotificationSink`` passes (the port's contract), run against the real
/// sink through a ``SinkConformanceHarness``.
///
/// Use it from a Swift Testing suite, one test case per applicable check:
///
/// ```swift
/// @Test(arguments: SinkConformance.applicable(to: WebhookHarness.supportedBehaviours))
/// func webhookSinkConforms(_ check: SinkConformance) async throws {
///     let harness = try await WebhookHarness()
///     let outcome = await check.run(on: harness)
///     #expect(outcome.failures.isEmpty, "\(outcome)")
/// }
/// ```
///
/// Every check also asserts, for every error the sink throws: the message names the sink
/// (contains its `identity`), and neither it nor any line the sink logged contains one of the
/// harness's ``SinkConformanceHarness/secrets``.
public enum SinkConformance: String, Sendable, CaseIterable, CustomStringConvertible {
    /// A healthy receiver gets the alert, with its id, and `deliver` returns.
    case deliversToAHealthyReceiver
    /// Delivering the same alert again (a retry) reaches the receiver again with the same id.
    case redeliveryCarriesTheSameID
    /// A temporary refusal (HTTP 500, SMTP 451) is a retryable error.
    case temporaryFailureIsRetryable
    /// A temporary refusal with `Retry-After: 7` is retryable and reports 7 seconds.
    case retryAfterIsReported
    /// A permanent refusal (HTTP 404, SMTP 550) is a permanent error.
    case permanentFailureIsPermanent
    /// A receiver nobody listens for (connection refused) is a retryable error.
    case unreachableReceiverIsRetryable
    /// A receiver that never answers makes the attempt fail at the sink's timeout, retryably.
    case timeoutIsRetryable
    /// Cancelling the task of an attempt stuck on a silent receiver ends it long before the
    /// sink's timeout, with a retryable error (a cancelled attempt must never dead-letter).
    case cancellationEndsPromptly
    /// Printing the sink (`"\(sink)"`, `String(reflecting:)`), as a log line might, shows no secret.
    case descriptionShowsNoSecret

    public var description: String { rawValue }

    /// The behaviours a check needs.
    public var requiredBehaviours: Set<SinkReceiverBehaviour.Kind> {
        switch self {
        case .deliversToAHealthyReceiver, .redeliveryCarriesTheSameID, .descriptionShowsNoSecret: [.healthy]
        case .temporaryFailureIsRetryable: [.temporaryFailure]
        case .retryAfterIsReported: [.temporaryFailureRetryAfter]
        case .permanentFailureIsPermanent: [.permanentFailure]
        case .unreachableReceiverIsRetryable: [.unreachable]
        case .timeoutIsRetryable, .cancellationEndsPromptly: [.hang]
        }
    }

    /// The checks a sink kind supporting `behaviours` must pass.
    public static func applicable(to behaviours: Set<SinkReceiverBehaviour.Kind>) -> [SinkConformance] {
        allCases.filter { $0.requiredBehaviours.isSubset(of: behaviours) }
    }

    /// The sink's deadline in the timeout check: short, as the check waits for it.
    public static let shortTimeout: Duration = .seconds(1)
    /// The sink's deadline in the cancellation check: far longer than ``cancellationBound``.
    public static let longTimeout: Duration = .seconds(600)
    /// How long a cancelled attempt may take to end before the check fails. Not a speed
    /// target: a bound that tells "ended on cancellation" from "ran into its own timeout".
    public static let cancellationBound: Duration = .seconds(60)

    /// The alert the checks deliver: a percent rule with every field set and a message with
    /// characters that need escaping in JSON, HTML and mrkdwn, and one outside ASCII.
    public static let sampleAlert = Alert(
        id: "0123456789abcdef0123456789abcdef", rule: "aapl-drop", symbol: "AAPL", provider: "yahoo",
        condition: "fall 3% from previous close", price: ExactDecimal("219.42") ?? .zero, currency: "USD",
        time: Timestamp(seconds: 1_727_879_460), base: ExactDecimal("226.21"), change: ExactDecimal("-3.0016"),
        direction: nil, message: "AAPL fell 3% to 219.42 € <b>\"now\"</b> & more")

    /// The outcome of one check.
    public struct Outcome: Sendable, CustomStringConvertible {
        public var check: SinkConformance
        /// What went wrong, one line each; empty when the check passed.
        public var failures: [String]

        public var description: String {
            failures.isEmpty ? "\(check): passed" : "\(check): " + failures.joined(separator: "; ")
        }
    }

    /// Runs this check against a sink built by `harness`.
    public func run<Harness: SinkConformanceHarness>(on harness: Harness) async -> Outcome {
        var failures: [String] = []
        let alert = Self.sampleAlert
        do {
            switch self {
            case .deliversToAHealthyReceiver:
                let sink = try await harness.makeSink(.healthy, timeout: .seconds(30))
                if let error = await Self.attempt(sink, alert) {
                    failures.append("expected the alert to be delivered, got error: \(error.message)")
                    failures += Self.problems(with: error, sink: sink, harness: harness)
                }
                let received = await harness.receivedAlertIDs()
                if received != [alert.id] { failures.append("expected the receiver to get [\(alert.id)], it got \(received)") }

            case .redeliveryCarriesTheSameID:
                let sink = try await harness.makeSink(.healthy, timeout: .seconds(30))
                for _ in 0..<2 {
                    if let error = await Self.attempt(sink, alert) { failures.append("delivery failed: \(error.message)") }
                }
                let received = await harness.receivedAlertIDs()
                if received != [alert.id, alert.id] {
                    failures.append("expected the receiver to get the same id twice, it got \(received)")
                }

            case .temporaryFailureIsRetryable:
                failures += try await expectError(.temporaryFailure, retryable: true, harness)

            case .retryAfterIsReported:
                failures += try await expectError(.temporaryFailureRetryAfter(seconds: 7), retryable: true, retryAfter: 7, harness)

            case .permanentFailureIsPermanent:
                failures += try await expectError(.permanentFailure, retryable: false, harness)

            case .unreachableReceiverIsRetryable:
                failures += try await expectError(.unreachable, retryable: true, harness)

            case .timeoutIsRetryable:
                failures += try await expectError(.hang, timeout: Self.shortTimeout, retryable: true, harness)

            case .cancellationEndsPromptly:
                failures += try await cancellation(harness)

            case .descriptionShowsNoSecret:
                let sink = try await harness.makeSink(.healthy, timeout: .seconds(30))
                for text in [String(describing: sink), String(reflecting: sink)] {
                    for secret in harness.secrets where text.contains(secret) {
                        failures.append("printing the sink shows a secret: \(Self.masked(text, harness.secrets))")
                    }
                }
            }
        } catch {
            failures.append("the harness could not build the sink: \(error)")
        }
        for line in await harness.logLines() {
            for secret in harness.secrets where line.contains(secret) {
                failures.append("a log line contains a secret: \(Self.masked(line, harness.secrets))")
            }
        }
        return Outcome(check: self, failures: failures)
    }

    private func expectError<Harness: SinkConformanceHarness>(
        _ behaviour: SinkReceiverBehaviour, timeout: Duration = .seconds(30), retryable: Bool,
        retryAfter: Int64? = nil, _ harness: Harness
    ) async throws -> [String] {
        let sink = try await harness.makeSink(behaviour, timeout: timeout)
        guard let error = await Self.attempt(sink, Self.sampleAlert) else {
            return ["expected an error from a receiver that is \(behaviour), the delivery succeeded"]
        }
        var failures = Self.problems(with: error, sink: sink, harness: harness)
        if error.isRetryable != retryable {
            failures.append("expected a \(retryable ? "retryable" : "permanent") error for \(behaviour), "
                            + "got a \(error.isRetryable ? "retryable" : "permanent") one: \(Self.masked(error.message, harness.secrets))")
        }
        if let retryAfter, error.retryAfterSeconds != retryAfter {
            failures.append("expected retryAfterSeconds \(retryAfter), got \(error.retryAfterSeconds.map(String.init) ?? "nil")")
        }
        return failures
    }

    private enum Race: Sendable {
        case ended(SinkError?)
        case stillRunning
    }

    private func cancellation<Harness: SinkConformanceHarness>(_ harness: Harness) async throws -> [String] {
        let sink = try await harness.makeSink(.hang, timeout: Self.longTimeout)
        let (outcomes, continuation) = AsyncStream<Race>.makeStream()
        let delivery = Task {
            continuation.yield(.ended(await Self.attempt(sink, Self.sampleAlert)))
        }
        try await harness.waitUntilReceiving()
        delivery.cancel()
        // The bound only decides when to give up on a sink that ignores cancellation.
        let bound = Task {
            try? await Task.sleep(for: Self.cancellationBound)
            continuation.yield(.stillRunning)
        }
        var iterator = outcomes.makeAsyncIterator()
        let first = await iterator.next()
        bound.cancel()
        continuation.finish()
        switch first {
        case .ended(let error?):
            var failures = Self.problems(with: error, sink: sink, harness: harness)
            if !error.isRetryable {
                failures.append("a cancelled attempt must be retryable (it must not dead-letter the alert), got a permanent error")
            }
            return failures
        case .ended(nil):
            return ["the cancelled attempt reported success although the receiver never answered"]
        case .stillRunning, nil:
            return ["the attempt was still running \(Self.cancellationBound) after its task was cancelled"]
        }
    }

    /// The error of one delivery, or `nil` when it succeeded.
    static func attempt(_ sink: any NotificationSink, _ alert: Alert) async -> SinkError? {
        do {
            try await sink.deliver(alert)
            return nil
        } catch {
            return error
        }
    }

    /// What is wrong with an error message: a secret in it, or no sink identity.
    static func problems<Harness: SinkConformanceHarness>(with error: SinkError, sink: any NotificationSink,
                                                          harness: Harness) -> [String] {
        var problems: [String] = []
        for secret in harness.secrets where error.message.contains(secret) {
            problems.append("the error message contains a secret: \(masked(error.message, harness.secrets))")
        }
        if !error.message.contains(sink.identity) {
            problems.append("the error message does not name the sink '\(sink.identity)': \(masked(error.message, harness.secrets))")
        }
        return problems
    }

    /// `text` with every secret replaced, so a failing check does not print the secret either.
    static func masked(_ text: String, _ secrets: [String]) -> String {
        secrets.filter { !$0.isEmpty }.sorted { $0.count > $1.count }.reduce(text) { $0.replacing($1, with: "<SECRET>") }
    }
}
