import CSystemd

/// What the service manager told this process through its environment.
public enum SystemdEnvironment {
    /// Whether `NOTIFY_SOCKET` is set, so `sd_notify` reaches a manager.
    public static func hasNotifySocket(_ environment: [String: String]) -> Bool {
        environment["NOTIFY_SOCKET"].map { !$0.isEmpty } ?? false
    }
}
