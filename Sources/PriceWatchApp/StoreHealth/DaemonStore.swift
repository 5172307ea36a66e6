import PriceWatchCore
import PriceWatchStore

/// Every role of the store the daemon's services use, as one type (the SQLite store has them all).
public typealias DaemonStore = RuleStateStore & QuoteHistoryStore & OutboxStore & AlertLogStore & RetentionStore & JobRunStore
