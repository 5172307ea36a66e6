import PriceWatchCore
import PriceWatchHTTP

/// `/api/silences` in the running daemon: the same use case as `pricewatch silence`
/// (``ManageSilences``) on the daemon's state database, so the dispatcher sees a new silence at
/// its next look at the outbox, with no reload.
struct DaemonSilenceAdministration: SilenceAdministration {
    let configPath: String
    let wallClock: @Sendable () -> Timestamp
    /// The configuration the daemon runs now (it changes with reloads).
    let configuration: @Sendable () async -> Configuration

    /// Why a silence could not be read or written, in the command line's words.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func now() -> Timestamp { wallClock() }

    func add(_ silence: Silence) async throws {
        _ = try Self.silences(await ManageSilences.add(silence, configPath: configPath, report: { _ in }))
    }

    func active(at now: Timestamp) async throws -> [Silence] {
        try Self.silences(await ManageSilences.list(configPath: configPath, all: false, now: now, report: { _ in }))
    }

    func expire(id: String, at now: Timestamp) async throws -> Silence? {
        try Self.silences(await ManageSilences.expire(configPath: configPath, id: id, now: now, report: { _ in })).first
    }

    func unmatched(_ target: Silence.Target) async -> String? {
        let configuration = await configuration()
        let rules = configuration.rules + configuration.portfolioRules
        switch target {
        case .rule(let id):
            return rules.contains { $0.id == id } ? nil : "no rule has the id \(ControlCharacters.shown(id))"
        case .symbol(let symbol):
            return rules.contains { $0.symbols.contains(symbol) } ? nil : "no rule watches the symbol \(ControlCharacters.shown(symbol))"
        }
    }

    private static func silences(_ outcome: ManageSilences.Outcome) throws -> [Silence] {
        switch outcome {
        case .silences(let silences): return silences
        case .configurationFailed: throw Failure(description: "the configuration on disk has errors; run pricewatch check")
        case .failed(let message): throw Failure(description: message)
        }
    }
}
