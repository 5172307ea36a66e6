import PriceWatchCore

/// Where `/api/silences` reads and writes the operator's silences: implemented by the
/// application on the use cases `pricewatch silence` calls, so a silence added over HTTP is the
/// same record, effective at once without a reload.
///
/// The contract:
///
/// - Every method works on the state database the daemon uses; none blocks polling or
///   delivery (each opens its own connection, as the command line does).
/// - A thrown error's description is shown to the client: it says what failed in the words of
///   the command line and never holds a secret.
/// - ``now()`` is the wall clock the silences are measured against (tests inject one).
public protocol SilenceAdministration: Sendable {
    /// The current time.
    func now() -> Timestamp
    /// Stores `silence` (its id is new).
    func add(_ silence: Silence) async throws
    /// The silences in force at `now` or later.
    func active(at now: Timestamp) async throws -> [Silence]
    /// Ends the silence `id` at `now`; nil when no silence has that id.
    func expire(id: String, at now: Timestamp) async throws -> Silence?
    /// Why `target` matches nothing in the running configuration (no rule has the id, no rule
    /// watches the symbol), for the answer to say so; nil when some rule matches it.
    func unmatched(_ target: Silence.Target) async -> String?
}
