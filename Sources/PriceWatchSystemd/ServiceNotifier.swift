import CSystemd
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Tells the service manager about the daemon's state with `sd_notify(3)`: `READY=1`,
/// `STATUS=`, `RELOADING=1` with `MONOTONIC_USEC=`, `STOPPING=1` and `WATCHDOG=1`.
///
/// Messages are sent in call order from a serial queue of their own, never on the caller's
/// thread, and never block: each is one datagram to `$NOTIFY_SOCKET` sent with `MSG_DONTWAIT`
/// on a non-blocking socket of our own. `sd_notify` itself blocks in `sendmsg` while the
/// socket's queue is full (10 datagrams by default), which a manager that stopped reading
/// (or a test's socket nobody reads) makes forever: the daemon then never finished stopping.
/// A message that cannot go at once is dropped, as is a failed send: the manager is gone or
/// not listening, and nobody else would read it. Without `$NOTIFY_SOCKET` (not started by
/// systemd) nothing is sent. Forms other than a path or an abstract `@name` (systemd 254's
/// `vsock:`) go through `sd_notify`.
public final class ServiceNotifier: Sendable {
    /// Whether a manager listens (`$NOTIFY_SOCKET` is set).
    public let isActive: Bool
    /// How long ``flush()`` waits for the messages before it gives up on them.
    public static let flushTimeout: Duration = .seconds(2)
    private let queue = DispatchQueue(label: "pricewatch.sd-notify")
    /// The socket's address bytes for `sun_path` (a leading NUL for an abstract name); nil:
    /// `sd_notify` sends.
    private let path: [UInt8]?
    /// A non-blocking datagram socket, -1 when none could be made (then `sd_notify` sends).
    private let descriptor: Int32

    public init() {
        let value = getenv("NOTIFY_SOCKET").map { String(cString: $0) } ?? ""
        isActive = !value.isEmpty
        var bytes = Array(value.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        let fits = bytes.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        if isActive, fits, bytes.first == UInt8(ascii: "/") || bytes.first == 0 {
            path = bytes
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        } else {
            path = nil
            descriptor = -1
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// `READY=1` with a status line: startup or a reload finished (also a rejected one).
    public func ready(status: String) {
        send(["READY=1", Self.statusAssignment(status)])
    }

    /// A new status line for `systemctl status`.
    public func status(_ status: String) {
        send([Self.statusAssignment(status)])
    }

    /// `RELOADING=1` with `MONOTONIC_USEC=` (CLOCK_MONOTONIC now, in microseconds, as
    /// systemd 253's reload protocol wants; systemd 252 ignores it).
    public func reloading(status: String) {
        let now = Self.monotonicMicroseconds()
        send(["RELOADING=1", "MONOTONIC_USEC=\(now)", Self.statusAssignment(status)])
    }

    /// `STOPPING=1`: graceful shutdown has begun.
    public func stopping(status: String) {
        send(["STOPPING=1", Self.statusAssignment(status)])
    }

    /// `WATCHDOG=1`: the daemon is alive and making progress.
    public func watchdog() {
        send(["WATCHDOG=1"])
    }

    /// Sends `assignments` (`NAME=value`, one per line) as one message.
    public func send(_ assignments: [String]) {
        guard isActive else { return }
        let message = assignments.joined(separator: "\n")
        queue.async { [self] in
            guard let path, descriptor >= 0 else {
                _ = sd_notify(0, message)
                return
            }
            Self.sendWithoutBlocking(message, to: path, on: descriptor)
        }
    }

    /// Returns once every message sent before has gone out, or after ``flushTimeout`` (call
    /// before the process exits): notifications never hold up the exit.
    public func flush() {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        let nanoseconds = Self.flushTimeout.components.seconds * 1_000_000_000 + Self.flushTimeout.components.attoseconds / 1_000_000_000
        _ = done.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
    }

    /// One datagram to the socket at `path`, dropped when it cannot go at once.
    private static func sendWithoutBlocking(_ message: String, to path: [UInt8], on descriptor: Int32) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        // An abstract name's length counts exactly its bytes; a path's its terminating NUL too.
        let length = MemoryLayout.offset(of: \sockaddr_un.sun_path).map { $0 + path.count + (path.first == 0 ? 0 : 1) }
            ?? MemoryLayout<sockaddr_un>.size
        var bytes = Array(message.utf8)
        _ = bytes.withUnsafeMutableBytes { buffer in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT), $0, socklen_t(length))
                }
            }
        }
    }

    /// `CLOCK_MONOTONIC` in microseconds, the clock systemd uses for `MONOTONIC_USEC=`.
    public static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }

    /// `STATUS=` with the text on one line (a newline would end the assignment).
    static func statusAssignment(_ status: String) -> String {
        "STATUS=" + String(status.map { $0.isNewline ? " " : $0 })
    }
}
