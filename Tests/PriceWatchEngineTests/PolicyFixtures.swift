import Logging
import PriceWatchCore
import PriceWatchSystemd
import PriceWatchTestKit
import Synchronization

/// A provider whose every fetch takes the next scripted outcome (an answer per symbol, or a
/// whole-request error) and records the symbols and the manual-clock time of each call, so
/// policy tests can check exact retry and spacing times. When the script runs out it quotes
/// every asked symbol with `defaultPrice` at `defaultTime`.
final class FaultyProvider: QuoteProvider, Sendable {
    enum Outcome: Sendable {
        case answer([String: Result<Quote, ProviderError>])
        case fail(ProviderError)
        /// Quote every asked symbol at this price and time.
        case quoteAll(price: String, time: Int64)
    }

    struct Call: Sendable, Equatable {
        var symbols: [String]
        var at: Duration
    }

    let name: String
    let maximumBatchSize: Int
    let requestsPerMinute: Double?
    private let clock: ManualClock
    private let state: Mutex<(script: [Outcome], calls: [Call])>
    private let fallback: Mutex<Outcome>

    init(name: String, batchSize: Int = 100, requestsPerMinute: Double? = nil, clock: ManualClock, script: [Outcome] = [],
         otherwise: Outcome = .quoteAll(price: "100", time: 1_000)) {
        self.name = name
        self.maximumBatchSize = batchSize
        self.requestsPerMinute = requestsPerMinute
        self.clock = clock
        self.state = Mutex((script, []))
        self.fallback = Mutex(otherwise)
    }

    var calls: [Call] { state.withLock { $0.calls } }
    var callTimes: [Duration] { calls.map(\.at) }

    /// Appends outcomes to the script.
    func then(_ outcomes: Outcome...) { state.withLock { $0.script += outcomes } }

    /// What to answer once the script is used up.
    func otherwise(_ outcome: Outcome) { fallback.withLock { $0 = outcome } }

    func fetch(_ symbols: [String]) async throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        let now = clock.now.offset
        let outcome = state.withLock { state -> Outcome? in
            state.calls.append(Call(symbols: symbols, at: now))
            return state.script.isEmpty ? nil : state.script.removeFirst()
        } ?? fallback.withLock { $0 }
        switch outcome {
        case .answer(let answer):
            return answer
        case .fail(let error):
            throw error
        case .quoteAll(let price, let time):
            return Dictionary(uniqueKeysWithValues: symbols.map { ($0, .success(EngineFixtures.quote($0, price, at: time))) })
        }
    }
}

/// Keeps every line its loggers log, for asserting what the daemon logs. Each logger made from
/// ``logger`` has metadata of its own (a poller sets its provider once), as with a real handler.
final class CapturingLogHandler: Sendable {
    struct Line: Sendable, Equatable {
        var level: Logger.Level
        var message: String
        var provider: String?
        var symbol: String?
        /// The operator event (journal `MESSAGE_ID`) the line is marked with.
        var event: String?
    }

    private let storage = Mutex<[Line]>([])

    var lines: [Line] { storage.withLock { $0 } }

    /// Lines at `level` or above.
    func lines(atLeast level: Logger.Level) -> [Line] { lines.filter { $0.level >= level } }

    fileprivate func record(_ event: LogEvent, metadata: Logger.Metadata) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let entry = Line(level: event.level, message: "\(event.message)", provider: merged["provider"].map { "\($0)" },
                         symbol: merged["symbol"].map { "\($0)" },
                         event: merged[OperatorEvent.metadataKey].map { "\($0)" })
        storage.withLock { $0.append(entry) }
    }

    var logger: Logger { Logger(label: "test", factory: { _ in Handle(owner: self) }) }

    /// One logger's handler: its own metadata, lines to the owner.
    private struct Handle: LogHandler {
        let owner: CapturingLogHandler
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) { owner.record(event, metadata: metadata) }
    }
}
