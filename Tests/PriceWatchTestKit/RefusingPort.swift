#if canImport(Glibc)
import Glibc
#endif

/// A loopback port that refuses connections for as long as this value lives: a socket bound
/// to it that never listens. Stopping a server to get a refusing port is racy when tests run
/// in parallel (another test's server may be given the freed port); this port stays taken.
public final class RefusingPort: Sendable {
    public let port: UInt16
    private let descriptor: Int32

    public init() throws(LoopbackServerError) {
        let descriptor = socket(AF_INET, LoopbackServerCore.streamType, 0)
        guard descriptor >= 0 else { throw LoopbackServerError("socket", errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            let error = LoopbackServerError("bind/getsockname on 127.0.0.1", errno)
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(descriptor) }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }
}
