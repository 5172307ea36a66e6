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
/// thread: `sd_notify` is one datagram to `$NOTIFY_SOCKET` and normally returns at once, but
/// it blocks while the manager's receive queue is full, and the callers are tasks on the
/// cooperative pool. Without `$NOTIFY_SOCKET` (not started by systemd) nothing is sent. A
/// failed send is dropped: the manager is gone or not listening, and nobody else would
/// read the message.
public final class ServiceNotifier: Sendable {
    /// Whether a manager listens (`$NOTIFY_SOCKET` is set).
    public let isActive: Bool
    private let queue = DispatchQueue(label: "pricewatch.sd-notify")

    public init() {
        isActive = getenv("NOTIFY_SOCKET").map { $0.pointee != 0 } ?? false
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
        queue.async {
            _ = sd_notify(0, message)
        }
    }

    /// Returns once every message sent before has gone out (call before the process exits).
    public func flush() {
        queue.sync {}
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
