import PriceWatchConfig
import PriceWatchCore
import PriceWatchStore

/// `pricewatch silence add|list|expire` and `/api/silences`: the operator's
/// silences in the state database. A running daemon sees a change at its next look at the
/// outbox (within seconds), with no reload.
public enum ManageSilences {
    /// What a silence command did.
    public enum Outcome: Sendable {
        /// The main file could not give the state's location; its diagnostics say why.
        case configurationFailed
        /// The database could not be read or written: the error, for one line.
        case failed(String)
        /// The silences added, listed or expired (empty: none matched).
        case silences([Silence])
    }

    /// Adds a silence of `target` from `now` to `endsAt`. The state database must exist (the
    /// daemon creates it at its first start). A target that no rule of the configuration
    /// matches (a typo) is refused with the id or symbol that exists, unless `force` (a silence
    /// made ahead of its rule).
    public static func add(configPath: String, target: Silence.Target, endsAt: Timestamp, comment: String,
                           now: Timestamp, force: Bool = false, environment: [String: String] = [:],
                           report: ([Diagnostic]) -> Void) async -> Outcome {
        if !force, let problem = unmatched(target, configPath: configPath, environment: environment) {
            return .failed(problem)
        }
        let silence = Silence(id: Silence.newID(), target: target, startsAt: now, endsAt: endsAt, comment: comment, createdAt: now)
        return await add(silence, configPath: configPath, report: report)
    }

    /// Why no rule of the configuration would ever be held back by a silence of `target`; nil
    /// when one would, or when the configuration has errors (it cannot say what exists then;
    /// `check` reports them).
    static func unmatched(_ target: Silence.Target, configPath: String, environment: [String: String]) -> String? {
        let (loaded, diagnostics) = ConfigurationLoader.load(mainFile: configPath, environment: environment,
                                                             schemas: AdapterCatalog.schemas)
        guard let configuration = loaded, !diagnostics.containsErrors else { return nil }
        let problem: String
        switch target {
        case .rule(let id):
            let ids = configuration.rules.map(\.id)
            guard !ids.contains(id) else { return nil }
            let hint = Suggestion.closest(to: id, among: ids).map { " (did you mean '\($0)'?)" } ?? ""
            problem = "no rule has the id '\(id)'\(hint)"
        case .symbol(let symbol):
            var symbols: [String] = []
            for rule in configuration.rules where rule.portfolio == nil {
                for watched in rule.symbols where !symbols.contains(watched) { symbols.append(watched) }
            }
            guard !symbols.contains(symbol) else { return nil }
            let hint = Suggestion.closest(to: symbol, among: symbols).map { " (did you mean '\($0)'?)" } ?? ""
            problem = "no rule watches the symbol '\(symbol)'\(hint)"
        }
        return ControlCharacters.escaped(problem + "; --force adds the silence anyway, ahead of its rule")
    }

    /// Stores `silence` as it is (its id must be new).
    public static func add(_ silence: Silence, configPath: String, report: ([Diagnostic]) -> Void) async -> Outcome {
        await withStore(configPath: configPath, report: report) { store in
            try await store.addSilence(silence)
            return [silence]
        }
    }

    /// The silences still in force at `now` (or later), or every one stored when `all`.
    public static func list(configPath: String, all: Bool, now: Timestamp,
                            report: ([Diagnostic]) -> Void) async -> Outcome {
        await withStore(configPath: configPath, report: report) { store in
            try await store.silences(endingAfter: all ? nil : now)
        }
    }

    /// Ends the silence `id` at `now`; an empty result when no silence has that id.
    public static func expire(configPath: String, id: String, now: Timestamp,
                              report: ([Diagnostic]) -> Void) async -> Outcome {
        await withStore(configPath: configPath, report: report) { store in
            try await store.expireSilence(id: id, now: now).map { [$0] } ?? []
        }
    }

    private static func withStore(configPath: String, report: ([Diagnostic]) -> Void,
                                  _ body: (SQLiteAlertStore) async throws -> [Silence]) async -> Outcome {
        let (location, diagnostics) = ConfigurationLoader.stateLocation(mainFile: configPath, schemas: AdapterCatalog.schemas)
        report(diagnostics)
        guard let location else { return .configurationFailed }
        do {
            // The file must exist: like `requeue`, a silence never creates the state database
            // (one created by another user than the daemon's would lock the daemon out).
            _ = try SQLiteAlertStore.openReadOnly(path: location.statePath).close()
            let store = try SQLiteAlertStore.open(path: location.statePath)
            let result: [Silence]
            do {
                result = try await body(store)
            } catch {
                try? store.close()
                throw error
            }
            try store.close()
            return .silences(result)
        } catch {
            return .failed("\(error)")
        }
    }
}
