import Logging

/// Where `pricewatch run` logs (`--log-target`).
public enum LogTarget: String, CaseIterable, Sendable {
    /// The journal when standard error is the journal (`JOURNAL_STREAM`, as under systemd),
    /// else standard error.
    case auto
    /// The journal, with structured fields (``JournalLogHandler``); standard error when it
    /// cannot be reached.
    case journal
    /// Plain lines on standard error, RFC 3339 UTC timestamps (``StandardErrorLogHandler``).
    case stderr

    /// Whether this target logs to the journal in `environment` (this process's).
    public func usesJournal(environment: [String: String]) -> Bool {
        switch self {
        case .auto: SystemdEnvironment.standardErrorIsJournal(environment)
        case .journal: true
        case .stderr: false
        }
    }

    /// The handler factory for `LoggingSystem.bootstrap`.
    public func handlerFactory(level: Logger.Level, environment: [String: String]) -> @Sendable (String) -> any LogHandler {
        if usesJournal(environment: environment) {
            return { label in
                var handler = JournalLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
        }
        return { label in
            var handler = StandardErrorLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
