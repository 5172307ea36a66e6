import Logging
import PriceWatchCore

/// The dispatcher's view of the operator's silences, read again only when they changed.
///
/// Silences are added and expired by another process (`pricewatch silence`) while the daemon
/// runs; they take effect at the dispatcher's next look at the outbox, without a reload. Each
/// look costs one cheap read (``SilenceStore/silenceGeneration()``); the silences themselves are
/// read only when that number moved. When the store cannot be read, the silences last read stay
/// in force (none at start): a failing read never holds back every alert.
public actor SilenceGate {
    private let store: any SilenceStore
    private let logger: Logger
    private var generation: Int64?
    private var current = SilenceSet.empty

    public init(store: any SilenceStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// The silences in force at `now` or later.
    public func silences(now: Timestamp) async -> SilenceSet {
        do {
            let latest = try await store.silenceGeneration()
            if latest != generation {
                let read = try await store.silences(endingAfter: now)
                current = SilenceSet(read)
                generation = latest
                logger.debug("silences read", metadata: ["silences": "\(read.count)"])
            }
        } catch {
            logger.error("could not read the silences: \(error); the last ones read stay in force")
        }
        return current
    }
}
