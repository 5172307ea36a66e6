import Foundation

/// A one-way barrier a test opens to let a ``LoopbackHTTPServer`` answer: the way to make a
/// "slow" answer without sleeping.
///
/// Attach it to a response with ``LoopbackResponse/after(_:)``; the connection thread waits
/// before answering until ``open()`` (or until the server stops). Once open it stays open.
/// Prefer `.after(gate)` to calling ``wait()`` inside a handler: only the former is released
/// by ``LoopbackHTTPServer/stop()`` if the test never opens the gate.
///
/// ```swift
/// let gate = LoopbackGate()
/// server.route("GET", "/slow") { _ in .text("late").after(gate) }
/// async let answer = transport.send(HTTPRequest(url: server.baseURL + "/slow"))
/// _ = await server.waitForRequests(count: 1)   // the request has arrived and is held
/// gate.open()
/// ```
public final class LoopbackGate: @unchecked Sendable {
    // `isOpen` is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var isOpen = false

    public init() {}

    /// Lets every waiting and future answer through.
    public func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks the calling (server) thread until ``open()``. Never call it from a Swift task.
    public func wait() {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }

    public var opened: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isOpen
    }
}
