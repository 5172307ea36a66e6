import Foundation
import PriceWatchTestKit
import Testing

/// Issue 29, item 12: with a `NOTIFY_SOCKET` nobody reads, the socket's queue fills (10
/// datagrams by default) and `sd_notify` blocked in `sendmsg`; at SIGTERM the daemon waited for
/// its notifications forever and never stopped. Notifications are sent without blocking and
/// never hold shutdown.
@Suite(.serialized) struct NotifySocketNobodyReadsTests {
    /// A datagram socket bound at `path` that is never read.
    final class DeafSocket {
        let descriptor: Int32
        let path: String

        init(path: String) throws {
            self.path = path
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            guard bind(to: path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }

        deinit { close(descriptor) }

        private func bind(to path: String) -> Int32 {
            var address = Self.address(path)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }

        static func address(_ path: String) -> sockaddr_un {
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8).prefix($0.count - 1)) }
            return address
        }

        /// Whether the queue is full: a datagram sent without blocking is refused with EAGAIN.
        var isFull: Bool {
            let sender = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            defer { close(sender) }
            var address = Self.address(path)
            let sent = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(sender, "STATUS=probe", 12, Int32(MSG_DONTWAIT), $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            return sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
        }
    }

    @Test func sigtermStopsTheDaemonWhenNobodyReadsItsNotifications() async throws {
        let demo = try DemoDaemon(prices: (0..<600).map { $0 % 2 == 0 ? "10" : "20" })
        let socket = try DeafSocket(path: demo.directory.file("notify.sock"))
        let daemon = try ChildProcess(
            "/bin/sh", ["-c", "WATCHDOG_PID=$$ exec \"$0\" run --config pricewatch.toml --log-target stderr", CommandRunner.executable],
            in: demo.path, environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "200000"],
            removing: ["WATCHDOG_PID", "JOURNAL_STREAM"])
        // Pings every 100 ms fill the queue within a second or two.
        try await waitUntil("the notify socket's queue to fill (stderr: \(daemon.errorOutput.suffix(300)))") {
            if !daemon.process.isRunning { throw WaitAbandoned(what: "the queue to fill", reason: "the daemon exited: \(daemon.errorOutput.suffix(500))") }
            return socket.isFull
        }
        // A few more messages (alerts' statuses, pings) are now waiting in the daemon.
        let alertsAtFill = daemon.output.split(separator: "\n").count
        try await waitUntil("two alerts on standard output after the queue filled") {
            daemon.output.split(separator: "\n").count >= alertsAtFill + 2
        }
        daemon.signal(SIGTERM)
        let status = try await daemon.waitForExit(timeout: .seconds(20))
        #expect(status == 0, "\(daemon.errorOutput.suffix(1_000))")
    }
}
