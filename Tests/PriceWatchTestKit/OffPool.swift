import Foundation

/// Runs blocking work (a socket read, waiting for a child process) on a thread of its own, so
/// the cooperative pool other tests run on is never held by it.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
        }
        thread.start()
    }
}
