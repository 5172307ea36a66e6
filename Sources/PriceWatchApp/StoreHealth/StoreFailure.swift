import Logging
import PriceWatchStore
import PriceWatchSystemd

/// How the daemon ends when its state database is unusable: loudly, once, with its own exit
/// status, rather than running on and failing every poll.
enum StoreFailure {
    /// The store error in `error` when it makes the state unusable.
    static func unusable(_ error: any Error) -> StoreError? {
        guard let error = error as? StoreError, error.makesTheStateUnusable else { return nil }
        return error
    }

    /// Logs the failure at `critical` and says it in systemd's `STATUS=`; returns
    /// ``Daemon/stateUnusableStatus``.
    static func stop(_ error: StoreError, notifier: ServiceNotifier, logger: Logger) -> Int32 {
        logger.critical("the state database is unusable; pricewatch stops (exit status \(Daemon.stateUnusableStatus)) and is not restarted: \(error)")
        notifier.status("stopped: state database \(error.path) is unusable (\(Self.summary(error))); see the journal")
        return Daemon.stateUnusableStatus
    }

    /// A few words for the status line.
    static func summary(_ error: StoreError) -> String {
        switch error {
        case .corrupted: "damaged"
        case .emptied: "empty file"
        case .newerVersion: "written by a newer pricewatch"
        case .foreign: "not a pricewatch database"
        case .deleted: "deleted"
        case .replaced, .replacedSinceUse: "replaced"
        default: "\(error)"
        }
    }
}
