import GRDB
import PriceWatchCore

/// The ``SilenceStore`` role: the operator's silences (`pricewatch silence`).
extension SQLiteAlertStore: SilenceStore {
    public func addSilence(_ silence: Silence) async throws {
        try await write("adding a silence") { db in try SilenceTable.insert(silence, in: db) }
    }

    public func silences(endingAfter: Timestamp?) async throws -> [Silence] {
        try await read("reading silences") { db in try SilenceTable.fetch(endingAfter: endingAfter, in: db) }
    }

    public func expireSilence(id: String, now: Timestamp) async throws -> Silence? {
        try await write("expiring a silence") { db in try SilenceTable.expire(id: id, now: now, in: db) }
    }

    public func silenceGeneration() async throws -> Int64 {
        try await read("reading the silence generation") { db in try SilenceTable.generation(in: db) }
    }
}
