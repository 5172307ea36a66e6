import CSystemd
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the service manager told this process through its environment.
public enum SystemdEnvironment {
    /// Whether `NOTIFY_SOCKET` is set, so `sd_notify` reaches a manager.
    public static func hasNotifySocket(_ environment: [String: String]) -> Bool {
        environment["NOTIFY_SOCKET"].map { !$0.isEmpty } ?? false
    }

    /// How often to send `WATCHDOG=1`: half of `WATCHDOG_USEC`, when the watchdog is on for
    /// this process (`sd_watchdog_enabled`: `WATCHDOG_USEC` set and `WATCHDOG_PID`, if set,
    /// is this process). `nil` when there is no watchdog.
    public static func watchdogPingPeriod() -> Duration? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return .microseconds(Int64(clamping: microseconds / 2))
    }

    /// Whether standard error is connected to the journal: `JOURNAL_STREAM` (`DEVICE:INODE`,
    /// set by systemd for a unit whose output goes to the journal) names the file standard
    /// error is. A child whose standard error was redirected elsewhere inherits the variable,
    /// hence the comparison with `fstat(2)`.
    public static func standardErrorIsJournal(_ environment: [String: String]) -> Bool {
        guard let stream = environment["JOURNAL_STREAM"] else { return false }
        let parts = stream.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }
}
