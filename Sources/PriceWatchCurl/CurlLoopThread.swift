import Foundation

/// Starts the dedicated (non-cooperative) thread that runs a ``CurlMultiDriver``'s loop.
enum CurlLoopThread {
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
    }
}
