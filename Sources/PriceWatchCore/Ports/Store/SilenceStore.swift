/// The silences role of the store: what `pricewatch silence` writes and the dispatcher reads.
///
/// Silences are written by another process (the command line) while the daemon runs, so the
/// daemon asks ``silenceGeneration()`` (one cheap read) before it reads the silences again: the
/// generation changes whenever a silence is added, expired or deleted.
public protocol SilenceStore: Sendable {
    /// Stores a new silence. An id already stored is an error.
    func addSilence(_ silence: Silence) async throws

    /// Silences still in force at or after `endingAfter` (their `endsAt` is later), or every
    /// stored silence when nil; oldest first.
    func silences(endingAfter: Timestamp?) async throws -> [Silence]

    /// Ends the silence `id` at `now` (when it ends later than that) and returns it as it is
    /// now; nil when no silence has that id.
    func expireSilence(id: String, now: Timestamp) async throws -> Silence?

    /// A number that changes whenever the stored silences change.
    func silenceGeneration() async throws -> Int64
}
