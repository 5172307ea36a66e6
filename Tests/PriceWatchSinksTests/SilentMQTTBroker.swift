#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// A loopback "broker" that answers the CONNECT with a CONNACK of the given return code (0,
/// accepted, by default; 3 is "server unavailable") and then never answers again: a PUBLISH
/// with QoS 1 gets no PUBACK. For the sink's acknowledgement timeout and a temporary refusal.
final class SilentMQTTBroker: @unchecked Sendable {
    // @unchecked: `listener` is immutable; `connections` is in a mutex.
    let port: UInt16
    private let listener: Int32
    private let connections = Mutex<[Int32]>([])
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

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            connections.withLock { $0.append(connection) }
            Thread.detachNewThread { [self] in answerConnectOnly(connection) }
        }
    }

    private func answerConnectOnly(_ connection: Int32) {
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

    private let stopped = Mutex(false)

    /// Closes the listening socket and every connection; once, however often it is called.
    func stop() {
        let wasStopped = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in connections.withLock({ $0 }) {
            shutdown(connection, Int32(SHUT_RDWR))
            close(connection)
        }
    }

    deinit { stop() }
}
