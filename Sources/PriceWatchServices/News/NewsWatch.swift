import Logging
import PriceWatchCore

/// One read of the news (`docs/events.md`, "News"): every symbol the enabled news rules watch,
/// its feed read once, the new stories matched against the rules (``NewsSelection``) and
/// queued in the outbox as `news` notifications, then recorded as seen.
///
/// Each story is sent once per rule: the notification's id comes from the rule, the symbol and
/// the story's guid, and the outbox queues an id once; the stories are recorded as seen only
/// after their notifications are queued, so a crash in between queues nothing twice and loses
/// nothing. A feed that fails is logged and read again at the next pass; the other symbols go on.
public struct NewsWatch: Sendable {
    private let ledger: any NewsLedgerStore
    private let outbox: any OutboxStore
    private let logger: Logger

    public init(ledger: any NewsLedgerStore, outbox: any OutboxStore, logger: Logger) {
        self.ledger = ledger
        self.outbox = outbox
        self.logger = logger
    }

    /// What one pass did.
    public struct Outcome: Sendable, Hashable {
        /// Symbols whose feed was read.
        public var symbolsRead = 0
        /// Symbols whose feed could not be read.
        public var symbolsFailed = 0
        /// Stories not seen before, on every feed read.
        public var newStories = 0
        /// Notifications queued (a story for a rule).
        public var queued = 0

        public init(symbolsRead: Int = 0, symbolsFailed: Int = 0, newStories: Int = 0, queued: Int = 0) {
            self.symbolsRead = symbolsRead
            self.symbolsFailed = symbolsFailed
            self.newStories = newStories
            self.queued = queued
        }
    }

    /// Reads the feeds of `rules`' symbols from `source` at `now` and queues what is new. Store errors are
    /// thrown (the pass is tried again later); a feed's error is logged and the pass goes on.
    public func pass(rules: [EventRule], from source: any HeadlineSource, now: Timestamp) async throws -> Outcome {
        let rules = rules.filter { $0.event == .news && $0.enabled }
        var outcome = Outcome()
        let starts = try await ledger.newsRuleStarts(rules.map(\.id), now: now)
        var symbols: [String] = []
        for rule in rules { for symbol in rule.symbols where !symbols.contains(symbol) { symbols.append(symbol) } }
        for symbol in symbols {
            try Task.checkCancellation()
            let headlines: [NewsHeadline]
            do {
                headlines = try await source.headlines(for: symbol)
            } catch {
                outcome.symbolsFailed += 1
                logger.warning("could not read the news of \(symbol): \(error); trying again at the next read",
                               metadata: ["symbol": "\(symbol)"])
                continue
            }
            outcome.symbolsRead += 1
            let unseen = try await ledger.unseenHeadlines(NewsSelection.distinctStories(headlines))
            outcome.newStories += unseen.count
            guard !unseen.isEmpty else { continue }
            let watching = rules.filter { $0.symbols.contains(symbol) }
            for pick in NewsSelection.picks(unseen: unseen, rules: watching, starts: starts, now: now) {
                let content = NewsNotification(headline: pick.headline, rule: pick.rule.id, feed: source.name)
                let notification = OutgoingNotification(id: content.notificationID, time: pick.headline.publishedAt, content: content)
                if try await outbox.enqueue(notification, sinks: pick.rule.notify, now: now) {
                    outcome.queued += 1
                    logger.info("news for rule '\(pick.rule.id)' queued: \(symbol): \(pick.headline.title)",
                                metadata: ["rule": "\(pick.rule.id)", "symbol": "\(symbol)", "notification": "\(notification.id)"])
                }
            }
            try await ledger.recordSeenHeadlines(unseen, now: now)
        }
        // Stories are kept a little longer than the oldest that may still be sent.
        let cutoff = Timestamp(milliseconds: now.milliseconds - 2 * NewsSettings.maximumAge.seconds * 1000)
        try await ledger.forgetHeadlines(seenBefore: cutoff)
        logger.debug("news read: \(outcome.symbolsRead) of \(symbols.count) feeds, \(outcome.newStories) new stories, \(outcome.queued) notifications queued")
        return outcome
    }
}
