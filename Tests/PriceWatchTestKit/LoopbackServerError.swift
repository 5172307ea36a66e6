#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A socket call failed while starting the loopback server.
public struct LoopbackServerError: Error, CustomStringConvertible {
    public let description: String

    init(_ call: String, _ code: Int32) {
        description = "loopback server: \(call) failed: \(String(cString: strerror(code)))"
    }
}
