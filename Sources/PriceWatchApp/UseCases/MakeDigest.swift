import FoundationEssentials
import Logging
import PriceWatchCharts
import PriceWatchConfig
import PriceWatchCore
import PriceWatchPresentation
import PriceWatchServices
import PriceWatchStore

/// `pricewatch digest NAME`: makes the digest of a `[[digest]]` due at a given time from the
/// state database, to print it (`--preview`) or to queue it in the outbox (`--send`), where the
/// running daemon delivers it at its dispatcher's next pass.
public enum MakeDigest {
    /// What making the digest gave.
    public enum Outcome: Sendable {
        /// The configuration has errors (given to `report`).
        case configurationFailed
        /// No `[[digest]]` has that name: the names there are.
        case unknownDigest(available: [String])
        /// The database could not be read or written: the error, for one line.
        case failed(String)
        /// The digest; `queued` says whether `--send` added it to the outbox (false: a digest
        /// with the same name and due time was queued before).
        case made(Digest, notificationID: String, sinks: [String], queued: Bool)
    }

    /// Makes the digest `name` due at `due`; when `send`, queues it for its sinks.
    public static func run(configPath: String, environment: [String: String], name: String, due: Timestamp, send: Bool,
                           report: ([Diagnostic]) -> Void) async -> Outcome {
        guard let configuration = CommandConfiguration.load(configPath: configPath, environment: environment, report: report) else {
            return .configurationFailed
        }
        guard let settings = configuration.digests.first(where: { $0.name == name }) else {
            return .unknownDigest(available: configuration.digests.map(\.name))
        }
        // Calendar problems only make markets count as always open; `pricewatch market` reports them.
        let (markets, _) = MarketCalendarsLoader.load(configPath: configPath, environment: environment)
        guard FileManager.default.fileExists(atPath: configuration.statePath) else {
            return .failed("no state database at \(configuration.statePath): the daemon creates it at its first start")
        }
        do {
            // Like `requeue`: a digest never creates the state database.
            let store = send ? try SQLiteAlertStore.open(path: configuration.statePath)
                : try SQLiteAlertStore.openReadOnly(path: configuration.statePath)
            do {
                let builder = DigestBuilder(history: store, alerts: store, marketHours: markets, renderer: CairoChartRenderer(),
                                            sections: [PortfolioDigestSection(portfolios: { configuration.portfolios }, store: store),
                                                       PaperDigestSection(store: store)], logger: Logger(label: "pricewatch.digest") { _ in SwiftLogNoOpLogHandler() })
                let digest = try await builder.digest(settings, symbols: configuration.allSymbols.sorted(), due: due,
                                                 rules: configuration.rules)
                let id = settings.notificationID(due: due)
                var queued = false
                if send {
                    queued = try await store.enqueue(OutgoingNotification(id: id, time: due, content: DigestNotification(digest)), sinks: settings.notify,
                                                     now: Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))))
                }
                try store.close()
                return .made(digest, notificationID: id, sinks: settings.notify, queued: queued)
            } catch {
                try? store.close()
                throw error
            }
        } catch {
            return .failed("\(error)")
        }
    }
}
