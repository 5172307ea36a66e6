/// A TOML table: its keys in the order they are first written, each with its position and
/// value.
///
/// A reference type so the parser can extend a table from later headers and dotted keys in
/// place; immutable once `TOMLParser` returns the document (hence `@unchecked Sendable`).
/// Small tables (a rule has a handful of keys) are searched linearly; larger ones keep an
/// index, so looking a key up never costs more than hashing it.
///
/// Its storage is exempt from the runtime's exclusivity checks (`@exclusivity(unchecked)`):
/// only the parser writes it, on one thread, never while a read of it is under way, and
/// after that it is only read. The checks cost a thread-local lookup on every key looked up,
/// which with 100,000 rules was a tenth of reading the rule files.
public final class TOMLTable: @unchecked Sendable {
    /// One `key = value` of the table (or one sub-table, or one array of tables).
    public struct Entry: Sendable {
        public let key: String
        /// Where the key is first written: the first key of a dotted key (`a` of `a.b = 1`)
        /// or the `[` of the header that first names it.
        public let keyPosition: TOMLPosition
        public let value: TOMLValue
    }

    /// How the table came to exist, which decides what may extend it later (TOML 1.0,
    /// "Table" and "Inline Table").
    enum Origin {
        /// The document's root.
        case root
        /// Named on the way to a deeper header (`a` in `[a.b]`); a later `[a]` may define it.
        case implicit
        /// Defined by its own `[header]` (or an element of `[[header]]`).
        case header
        /// Made by a dotted key (`a` in `a.b = 1`); only dotted keys may add to it.
        case dotted
        /// An inline table `{ ... }`: complete as written.
        case inline
    }

    @exclusivity(unchecked) public private(set) var entries: [Entry] = []
    /// Where the table's own `[header]` is, when it has one.
    @exclusivity(unchecked) public internal(set) var headerPosition: TOMLPosition?
    @exclusivity(unchecked) var origin: Origin
    @exclusivity(unchecked) private var index: [String: Int]?
    private static let linearSearchLimit = 8

    init(origin: Origin, headerPosition: TOMLPosition? = nil) {
        self.origin = origin
        self.headerPosition = headerPosition
        // Room for a typical table's keys (a rule has three to five) at once, instead of
        // growing one, two, four: three allocations and copies fewer per table.
        entries.reserveCapacity(Self.initialCapacity)
    }

    private static let initialCapacity = 4

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    /// The keys in the order they are first written.
    public var keys: [String] { entries.map(\.key) }

    /// The value at `key`, if any.
    public subscript(key: String) -> TOMLValue? {
        guard let offset = offset(of: key) else { return nil }
        return entries[offset].value
    }

    /// Whether the table has `key` (without copying its value).
    public func contains(_ key: String) -> Bool { offset(of: key) != nil }

    /// The entry at `key`, if any.
    public func entry(_ key: String) -> Entry? {
        guard let offset = offset(of: key) else { return nil }
        return entries[offset]
    }

    func offset(of key: String) -> Int? {
        if let index { return index[key] }
        // The length first: it settles most mismatches without a call into string comparison.
        let length = key.utf8.count
        return entries.firstIndex { $0.key.utf8.count == length && $0.key == key }
    }

    /// Adds a key the table does not have yet (the parser checks first).
    func append(_ key: String, at position: TOMLPosition, _ value: TOMLValue) {
        entries.append(Entry(key: key, keyPosition: position, value: value))
        if index != nil {
            index?[key] = entries.count - 1
        } else if entries.count > Self.linearSearchLimit {
            var built: [String: Int] = [:]
            built.reserveCapacity(entries.count * 2)
            for (offset, entry) in entries.enumerated() { built[entry.key] = offset }
            index = built
        }
    }
}
