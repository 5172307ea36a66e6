/// The one way a test waits: polls a condition until it holds or a real-time deadline
/// (`ContinuousClock`) passes, and then fails by throwing ``WaitTimedOut``, whose message names
/// what was awaited. Swift Testing records a thrown error as the test's failure, so a broken
/// test stops at its first missed event instead of hanging.
///
/// The deadline is generous (``defaultWaitTimeout``): the events waited for happen within
/// milliseconds on an idle machine and within seconds on a loaded one; only a broken build
/// reaches it. It is never a way to wait for time to pass (inject a clock for that).
///
/// ```swift
/// try await waitUntil("the provider to be called twice (calls: \(provider.calls.count))") {
///     provider.calls.count >= 2
/// }
/// let line = try await waitFor("an alert line on standard output") {
///     daemon.outputLines.first { $0.contains("alert") }
/// }
/// ```
///
/// `what` is evaluated when the deadline passes, so it can report the state then.
public func waitUntil(_ what: @autoclosure () -> String, timeout: Duration = defaultWaitTimeout,
                      _ condition: () async throws -> Bool) async throws {
    _ = try await waitFor(what(), timeout: timeout) { try await condition() ? true : nil }
}

/// Polls `produce` until it returns a value (not `nil`) and returns it, or throws
/// ``WaitTimedOut`` naming `what` once `timeout` of real time has passed. Errors thrown by
/// `produce` end the wait at once (a server that stopped, a process that exited).
public func waitFor<Value>(_ what: @autoclosure () -> String, timeout: Duration = defaultWaitTimeout,
                           _ produce: () async throws -> Value?) async throws -> Value {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    var polls = 0
    while true {
        if let value = try await produce() { return value }
        if clock.now >= deadline { break }
        polls += 1
        // In-process events usually need a few turns of the cooperative pool; after that,
        // poll every 2 ms so a loaded machine's other work gets the cores.
        if polls < 64 {
            await Task.yield()
        } else {
            try await Task.sleep(for: .milliseconds(2))
        }
    }
    if let value = try await produce() { return value }
    throw WaitTimedOut(what: what(), timeout: timeout)
}

/// Runs `expire` once the wait deadline (`timeout`, ``defaultWaitTimeout`` unless given) has
/// passed, unless the returned task is cancelled first: for a wait that only something else
/// can end (stopping a server wakes the test waiting on its requests), so it ends by the same
/// deadline as ``waitUntil(_:timeout:_:)``. Cancel it once the wait is over (`defer`).
///
/// ```swift
/// let watchdog = expiringWait { server.stop() }
/// defer { watchdog.cancel() }
/// ```
public func expiringWait(timeout: Duration = defaultWaitTimeout,
                         _ expire: @escaping @Sendable () -> Void) -> Task<Void, Never> {
    Task {
        do {
            try await Task.sleep(for: timeout)
        } catch {
            return   // cancelled: the wait ended in time
        }
        expire()
    }
}

/// How long a wait lasts before it fails: far beyond what any event takes on a loaded CI
/// machine, far below the test run's own bound (`scripts/test`).
public let defaultWaitTimeout: Duration = .seconds(60)

/// A wait whose condition did not hold within its deadline.
public struct WaitTimedOut: Error, CustomStringConvertible {
    /// What the test waited for, as the test worded it.
    public let what: String
    public let timeout: Duration

    public init(what: String, timeout: Duration) {
        self.what = what
        self.timeout = timeout
    }

    public var description: String {
        "timed out after \(timeout.components.seconds) s waiting for \(what)"
    }
}

/// A wait that cannot succeed any more (the process exited, the server stopped), thrown by the
/// condition so the test fails at once instead of at the deadline.
public struct WaitAbandoned: Error, CustomStringConvertible {
    /// What the test waited for.
    public let what: String
    /// Why it can no longer happen.
    public let reason: String

    public init(what: String, reason: String) {
        self.what = what
        self.reason = reason
    }

    public var description: String { "stopped waiting for \(what): \(reason)" }
}
