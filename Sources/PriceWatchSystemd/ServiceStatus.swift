import PriceWatchCore
import Synchronization

/// The service's one-line status (`STATUS=`, shown by `systemctl status`):
/// `8 rules on 2 symbols, 1 provider, 1 sink; last poll 2026-11-21T10:20:01Z (demo); 0 pending deliveries`,
/// preceded by a note while something is wrong (a rejected reload, a stalled provider).
///
/// ``run()`` publishes it after polls, at once after the first and then at most once per
/// `minimumInterval` however many polls there are (polls only record and signal). The
/// lifecycle methods return the current line for the caller to send with its own message
/// (`READY=1`, for one).
public final class ServiceStatus<C: Clock<Duration>>: Sendable {
    private struct State {
        var summary = "starting"
        var note: String?
        var lastPoll: (provider: String, time: Timestamp)?
        /// A poll since the last published line.
        var pollUnpublished = false
    }

    private let clock: C
    private let minimumInterval: Duration
    private let pendingDeliveries: @Sendable () async -> Int?
    private let publish: @Sendable (String) -> Void
    private let state = Mutex(State())
    private let polls: AsyncStream<Void>
    private let pollSignal: AsyncStream<Void>.Continuation

    /// - Parameters:
    ///   - pendingDeliveries: counts the outbox's pending deliveries (`nil`: unknown).
    ///   - publish: sends a status line.
    public init(clock: C, minimumInterval: Duration, pendingDeliveries: @escaping @Sendable () async -> Int?,
                publish: @escaping @Sendable (String) -> Void) {
        self.clock = clock
        self.minimumInterval = minimumInterval
        self.pendingDeliveries = pendingDeliveries
        self.publish = publish
        (polls, pollSignal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// A configuration runs (`summary`); clears the note. Returns the line.
    public func running(_ summary: String) -> String {
        update { $0.summary = summary; $0.note = nil }
    }

    /// Sets or clears the note shown before the summary. Returns the line.
    public func note(_ note: String?) -> String {
        update { $0.note = note }
    }

    /// A provider finished a poll at `time` (wall clock).
    public func polled(provider: String, at time: Timestamp) {
        state.withLock {
            $0.lastPoll = (provider, time)
            $0.pollUnpublished = true
        }
        pollSignal.yield()
    }

    /// Publishes the line after polls, rate-limited, until the task is cancelled. Call once.
    public func run() async {
        var lastSent: C.Instant?
        for await _ in polls {
            // A signal left from polls the last line already showed.
            guard state.withLock({ $0.pollUnpublished }) else { continue }
            if let lastSent {
                do {
                    try await clock.sleep(until: lastSent.advanced(by: minimumInterval), tolerance: nil)
                } catch {
                    return
                }
            }
            let pending = await pendingDeliveries()
            publish(state.withLock { state in
                state.pollUnpublished = false
                return Self.line(state, pending: pending)
            })
            lastSent = clock.now
        }
    }

    private func update(_ change: (inout State) -> Void) -> String {
        state.withLock { state in
            change(&state)
            return Self.line(state, pending: nil)
        }
    }

    private static func line(_ state: State, pending: Int?) -> String {
        var parts = [state.summary]
        if let note = state.note { parts.insert(note, at: 0) }
        if let lastPoll = state.lastPoll {
            parts.append("last poll \(Timestamp(seconds: lastPoll.time.seconds).rfc3339) (\(lastPoll.provider))")
        }
        if let pending { parts.append("\(pending) pending deliver\(pending == 1 ? "y" : "ies")") }
        return parts.joined(separator: "; ")
    }
}
