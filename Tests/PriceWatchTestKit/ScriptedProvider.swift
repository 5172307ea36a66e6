import PriceWatchCore
import Synchronization

/// A provider that answers each fetch with the next scripted answer, counts its calls, and can
/// be made to hang until released: the stand-in for a service in scheduler tests.
public final class ScriptedProvider: QuoteProvider, Sendable {
    public let name: String
    public let maximumBatchSize: Int
    private let state: Mutex<State>

    struct State {
        var answers: [[String: Result<Quote, ProviderError>]]
        var calls: [[String]] = []
        var hanging = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    public init(name: String, batchSize: Int = 100, answers: [[String: Result<Quote, ProviderError>]] = []) {
        self.name = name
        self.maximumBatchSize = batchSize
        self.state = Mutex(State(answers: answers))
    }

    /// The symbols of every fetch so far.
    public var calls: [[String]] { state.withLock { $0.calls } }

    /// Fetches hang until ``release()``.
    public func hang() { state.withLock { $0.hanging = true } }

    public func release() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.hanging = false
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    public func fetch(_ symbols: [String]) async throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        let hanging = state.withLock { state -> Bool in
            state.calls.append(symbols)
            return state.hanging
        }
        if hanging {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    guard state.hanging else { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
        return state.withLock { state in
            state.answers.isEmpty ? [:] : state.answers.removeFirst()
        }
    }
}
