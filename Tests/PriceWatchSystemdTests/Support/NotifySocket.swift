import Foundation
import PriceWatchTestKit
import Synchronization

/// A service manager's end of `NOTIFY_SOCKET`: an `AF_UNIX` datagram socket bound in a
/// temporary directory, read on a thread of its own. Every datagram is kept as a message.
final class NotifySocket: Sendable {
    let path: String
    private let descriptor: Int32
    private let received = Mutex<[String]>([])
    private let stopped = Atomic<Bool>(false)
    private let readerDone = DispatchSemaphore(value: 0)

    init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw POSIXError(.ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        // Wake up every 50 ms to notice `close()`.
        var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let thread = Thread { [self] in self.readLoop() }
        thread.start()
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !stopped.load(ordering: .relaxed) {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                let message = String(decoding: buffer[0..<count], as: UTF8.self)
                received.withLock { $0.append(message) }
            }
        }
        readerDone.signal()
    }

    /// Every message so far, in arrival order.
    var messages: [String] { received.withLock { $0 } }

    /// Waits until `condition` holds on the messages; throws ``WaitTimedOut`` naming `what`
    /// (and the messages so far) when the deadline passes first.
    func waitFor(_ what: String, timeout: Duration = defaultWaitTimeout, _ condition: ([String]) -> Bool) async throws {
        try await waitUntil("\(what) on the notify socket (messages: \(messages))", timeout: timeout) { condition(messages) }
    }

    func close() {
        stopped.store(true, ordering: .relaxed)
        readerDone.wait()
        Foundation.close(descriptor)
        unlink(path)
    }
}
