import Synchronization

/// A thread-safe counter for a scripted server.
final class ServiceCounter: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock { count in
            defer { count += 1 }
            return count
        }
    }
}
