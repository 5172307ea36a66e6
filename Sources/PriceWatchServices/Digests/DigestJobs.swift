import Logging
import PriceWatchCore

/// The daemon's digest jobs: one ``ScheduledJob`` per `[[digest]]` (`digest:NAME`), which at
/// each due time makes the digest (``DigestBuilder``) and queues it in the outbox for its
/// sinks, with the guarantees of every notification.
///
/// Exactly once per due time: the scheduler records each run, and the notification's id comes
/// from the digest's name and due time (``DigestSettings/notificationID(due:)``), so a run
/// repeated after a crash queues nothing new. A run missed while the daemon was down is made up
/// at start within ``grace``. The jobs follow reloads (``ScheduledJobsSubscriber``); the other
/// keys (sinks, period, top, charts, markets) are read at each run from the configuration in
/// force. The digest's text, HTML and JSON come from `render`, the presentation's, which the
/// application passes in (the services know no presentation).
public struct DigestJobs: Sendable {
    /// How late a digest missed while the daemon was down is still sent.
    public static var grace: RuleDuration { RuleDuration(seconds: 12 * 3600)! }

    private let builder: DigestBuilder
    private let outbox: any OutboxStore
    private let configuration: @Sendable () async -> Configuration
    private let wallClock: @Sendable () -> Timestamp
    private let logger: Logger
    private let render: @Sendable (Digest) -> NotificationMessage

    /// - Parameter render: the digest as a message (title, text, HTML, attachments, JSON).
    public init(builder: DigestBuilder, outbox: any OutboxStore, configuration: @escaping @Sendable () async -> Configuration,
                wallClock: @escaping @Sendable () -> Timestamp, logger: Logger, render: @escaping @Sendable (Digest) -> NotificationMessage) {
        self.render = render
        self.builder = builder
        self.outbox = outbox
        self.configuration = configuration
        self.wallClock = wallClock
        self.logger = logger
    }

    /// The job's name for the digest `name`.
    public static func jobName(_ name: String) -> String { "digest:\(name)" }

    /// One job per digest of `digests`; `on_close` digests are due at the closes `marketHours`
    /// gives.
    public func jobs(for digests: [DigestSettings], marketHours: any MarketHours = AlwaysOpenMarkets()) -> [ScheduledJob] {
        digests.map { settings in
            ScheduledJob(name: Self.jobName(settings.name), schedule: settings.schedule.jobSchedule(marketHours: marketHours),
                         grace: Self.grace) { due in
                try await run(name: settings.name, due: due)
            }
        }
    }

    /// Makes and queues the digest `name` due at `due`, from the configuration in force.
    public func run(name: String, due: Timestamp) async throws {
        let configuration = await configuration()
        guard let settings = configuration.digests.first(where: { $0.name == name }) else {
            logger.notice("digest '\(name)' is no longer configured; not sent")
            return
        }
        let digest = try await builder.digest(settings, symbols: configuration.allSymbols.sorted(), due: due,
                                                 rules: configuration.rules)
        let notification = OutgoingNotification(id: settings.notificationID(due: due), kind: .digest, time: due,
                                                content: .message(render(digest)))
        try await outbox.enqueue(notification, sinks: settings.notify, now: wallClock())
        logger.info("digest '\(name)' due \(due.rfc3339) queued for \(settings.notify.joined(separator: ", "))",
                    metadata: ["digest": "\(name)", "notification": "\(notification.id)"])
    }
}
