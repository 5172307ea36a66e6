import PriceWatchCore
import PriceWatchTOML
import Synchronization

/// The rules of every rule file of the last configuration that loaded without an error, kept
/// so that a reload reads again only the files that changed.
///
/// A file is taken from the cache only when its bytes are the ones read last time (same length,
/// same 64-bit keyed hash) and everything its rules were finished against (the main file's
/// providers, sinks and defaults, and the portfolios) is unchanged; anything else is read and
/// checked afresh. Only files that had no diagnostic at all are kept, so a file taken from the
/// cache has nothing to report of its own; checks across files (duplicate ids) run again on
/// every load.
///
/// The daemon keeps one for its whole life and passes it to every load (start and each
/// reload); one-shot commands do not use one. It holds the rules of the configuration in force
/// (sharing their storage with it), and where each rule's `id` is written.
public final class RuleFileCache: Sendable {
    /// What one file's rules were finished against: ``RuleResolver``'s inputs.
    struct Context: Hashable, Sendable {
        let providersReadable: Bool
        let providerNames: [String]
        let defaultProvider: String?
        let defaultProviderWritten: Bool
        let sinksReadable: Bool
        let sinkNames: [String]
        let defaultNotify: [String]?
        let defaultNotifyWritten: Bool
        let mainDisplayPath: String
        let portfolios: [Portfolio]
        let portfoliosComplete: Bool

        init(_ resolver: RuleResolver) {
            providersReadable = resolver.settings.providersReadable
            providerNames = resolver.settings.providerNames
            defaultProvider = resolver.settings.defaultProvider
            defaultProviderWritten = resolver.settings.defaultProviderWritten
            sinksReadable = resolver.settings.sinksReadable
            sinkNames = resolver.settings.sinkNames
            defaultNotify = resolver.settings.defaultNotify
            defaultNotifyWritten = resolver.settings.defaultNotifyWritten
            mainDisplayPath = resolver.mainDisplayPath
            portfolios = resolver.portfolios
            portfoliosComplete = resolver.portfoliosComplete
        }
    }

    /// The identity of a file's contents: its length and a keyed hash of its bytes (the key is
    /// random per process, so no file can be made to collide on purpose).
    struct Fingerprint: Hashable, Sendable {
        let length: Int
        let hash: Int

        init(_ bytes: [UInt8]) {
            var hasher = Hasher()
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
            length = bytes.count
            hash = hasher.finalize()
        }
    }

    /// One file's finished rules, in file order, and where each one's `id` is written.
    struct Entry: Sendable {
        let fingerprint: Fingerprint
        let rules: ArraySlice<Rule>
        let idPositions: [TOMLPosition]
    }

    /// The files of one load, by absolute path, with what they were finished against.
    struct Generation: Sendable {
        let context: Context
        let entries: [String: Entry]

        /// The entry of the file at `path`, when its contents are `fingerprint` and the rules
        /// would be finished against `context` again.
        func entry(at path: String, fingerprint: Fingerprint) -> Entry? {
            guard let entry = entries[path], entry.fingerprint == fingerprint else { return nil }
            return entry
        }
    }

    private let generation = Mutex<Generation?>(nil)

    public init() {}

    /// The files kept from the last load, when they were finished against `context`.
    func generation(for context: Context) -> Generation? {
        generation.withLock { $0 }.flatMap { $0.context == context ? $0 : nil }
    }

    /// Keeps the files of a load without errors in place of the last one's.
    func replace(with next: Generation) { generation.withLock { $0 = next } }

    /// How many files are kept (for tests).
    public var fileCount: Int { generation.withLock { $0?.entries.count ?? 0 } }
}
