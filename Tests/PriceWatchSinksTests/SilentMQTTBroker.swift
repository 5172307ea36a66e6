#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// A loopback "broker" that answers the CONNECT with a CONNACK of the given return code (0,
/// accepted, by default; 3 is "server unavailable") and then never answers again: a PUBLISH
/// with QoS 1 gets no PUBACK. For the sink's acknowledgement timeout and a temporary refusal.
final class SilentMQTTBroker: @unchecked Sendable {
    // @unchecked: `listener` is immutable; the connections are in a mutex.
    let port: UInt16
    private let listener: Int32
    private struct State {
        var connections: Set<Int32> = []
        var stopped = false
    }

    private let state = Mutex(State())
    /// Bytes received after the CONNECT: the publishes that were never acknowledged.
    private let received = Mutex(0)

    private let connackCode: UInt8

    init(connackCode: UInt8 = 0) throws {
        self.connackCode = connackCode
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw MosquittoTestBroker.BrokerError(description: "socket failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listener = listener
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 && listen(listener, 4) == 0
            }
        }
        guard ok else {
            close(listener)
            throw MosquittoTestBroker.BrokerError(description: "bind/listen on 127.0.0.1 failed: errno \(errno)")
        }
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in serve() }
    }

    var bytesAfterConnect: Int { received.withLock { $0 } }

    // Each socket is closed by the thread that uses it, never by `stop()`, which only shuts
    // them down (under the lock a connection thread takes before closing): a number closed
    // under a thread still reading it could be reused by another test's socket, whose bytes
    // that thread would then swallow.
    private func serve() {
        defer { close(listener) }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            let admitted = state.withLock { state in
                guard !state.stopped else { return false }
                state.connections.insert(connection)
                return true
            }
            guard admitted else {
                close(connection)
                return
            }
            Thread.detachNewThread { [self] in answerConnectOnly(connection) }
        }
    }

    private func answerConnectOnly(_ connection: Int32) {
        defer {
            state.withLock { _ = $0.connections.remove(connection) }
            close(connection)
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var connected = false
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            if !connected {
                connected = true
                let connack: [UInt8] = [0x20, 0x02, 0x00, connackCode]
                _ = connack.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            } else {
                received.withLock { $0 += count }
            }
        }
    }

    /// Stops accepting and ends every connection; once, however often it is called.
    func stop() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            for connection in state.connections { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    deinit { stop() }
}
