import FoundationEssentials
import PriceWatchCore
import PriceWatchTOML

/// One configuration file being checked: its parsed document (every key and value with its
/// position), and the diagnostics found in it so far.
///
/// A reference type so that the readers of its tables can all report into it; it lives for
/// one synchronous load and is never shared between tasks.
final class ConfigFile {
    /// The path shown in diagnostics, as the user wrote it (relative paths stay relative).
    let displayPath: String
    /// The root table; `nil` when the file could not be read or is not valid TOML (and empty
    /// once ``dropDocument()`` was called).
    private(set) var root: TOMLTable?
    /// Everything parsed before the first syntax error (the whole file when there is none):
    /// what can still be made out of a broken file.
    private(set) var partialRoot: TOMLTable
    private var reported: [Diagnostic] = []
    /// "missing required key" errors, held back until the whole file is read: one whose key
    /// an unknown key was suggested for (`abvoe`: did you mean 'above'?) is a knock-on of that
    /// typo and is not printed.
    private var missing: [(keys: [String], table: TOMLKeyPath, diagnostic: Diagnostic)] = []
    /// The keys suggested for unknown keys, by table.
    private var suggested: [TOMLKeyPath: Set<String>] = [:]

    /// Every diagnostic of the file, knock-on "missing" errors left out.
    var diagnostics: [Diagnostic] {
        reported + missing.filter { pending in
            !(suggested[pending.table].map { keys in pending.keys.contains(where: keys.contains) } ?? false)
        }.map(\.diagnostic)
    }

    /// The largest configuration file read (1 MiB), so that loading stays fast and bounded.
    static let maximumBytes = TOMLLimits.default.maximumDocumentBytes

    /// How many errors (not warnings) have been reported so far; readers compare it before
    /// and after reading a table to know whether the table was valid.
    private(set) var errorCount = 0

    /// Checks `bytes` as the contents of `displayPath` (`what` names it in messages: "rule file").
    init(bytes: [UInt8], displayPath: String, what: String) {
        self.displayPath = displayPath
        let result = TOMLParser.parse(bytes: bytes)
        partialRoot = result.partialRoot
        root = result.root
        // The first error, then those the parser found after resynchronising at a later
        // table header: several bad lines of one file show in one check.
        for error in result.errors {
            errorCount += 1
            switch error.kind {
            case .encoding:
                reported.append(.error("cannot read the \(what): it is not UTF-8 text", path: displayPath))
            case .limit:
                reported.append(.error(error.message, path: displayPath, line: error.position.line,
                                       column: error.position.column))
            case .syntax:
                reported.append(.error("invalid TOML: " + error.message, path: displayPath, line: error.position.line,
                                       column: error.position.column))
            }
        }
    }

    /// A file that could not be read at all, with `reason` as its one error.
    static func unreadable(displayPath: String, reason: String) -> ConfigFile {
        ConfigFile(unreadable: displayPath, reason: reason)
    }

    private init(unreadable displayPath: String, reason: String) {
        self.displayPath = displayPath
        root = nil
        partialRoot = Self.emptyDocument
        reported = [.error(reason, path: displayPath)]
        errorCount = 1
    }

    /// Reads and parses the file at `absolutePath`; problems (missing, unreadable, too large,
    /// not UTF-8, not TOML) become its diagnostics.
    static func read(absolutePath: String, displayPath: String, what: String) -> ConfigFile {
        switch readBytes(absolutePath: absolutePath, displayPath: displayPath, what: what) {
        case .success(let bytes): ConfigFile(bytes: bytes, displayPath: displayPath, what: what)
        case .failure(let unreadable): unreadable.file
        }
    }

    /// A file that could not be read: the file with its one error, saying why.
    struct Unreadable: Error, @unchecked Sendable {
        let file: ConfigFile
    }

    /// The bytes of the file at `absolutePath`, not parsed yet; a file missing, unreadable or
    /// too large is a failure.
    static func readBytes(absolutePath: String, displayPath: String, what: String) -> Result<[UInt8], Unreadable> {
        if let reason = ConfigPaths.unreadableReason(absolutePath) {
            return .failure(Unreadable(file: ConfigFile(unreadable: displayPath, reason: "cannot read the \(what): \(reason)")))
        }
        // The size first, so that a huge file is refused without being read.
        if let size = (try? FileManager.default.attributesOfItem(atPath: absolutePath))?[.size] as? Int,
           size > maximumBytes {
            return .failure(Unreadable(file: ConfigFile(unreadable: displayPath, reason: tooLarge(what, size: size))))
        }
        guard let data = FileManager.default.contents(atPath: absolutePath) else {
            return .failure(Unreadable(file: ConfigFile(unreadable: displayPath, reason: "cannot read the \(what)")))
        }
        guard data.count <= maximumBytes else {
            return .failure(Unreadable(file: ConfigFile(unreadable: displayPath, reason: tooLarge(what, size: data.count))))
        }
        return .success([UInt8](data))
    }

    /// A file whose contents were read and checked before, unchanged since
    /// (``RuleFileCache``): nothing to report of its own, and no document.
    static func unchanged(displayPath: String) -> ConfigFile {
        ConfigFile(withoutDocument: displayPath)
    }

    /// A rule file read by ``PlainRuleFileReader``: nothing to report of its own (it reads only
    /// files that have nothing to report), and no document.
    static func readPlainly(displayPath: String) -> ConfigFile {
        ConfigFile(withoutDocument: displayPath)
    }

    private init(withoutDocument displayPath: String) {
        self.displayPath = displayPath
        root = Self.emptyDocument
        partialRoot = Self.emptyDocument
    }

    private static func tooLarge(_ what: String, size: Int) -> String {
        "the \(what) is \(size) bytes; a configuration file may have at most \(maximumBytes) bytes (1 MiB)"
            + (what == "rule file" ? "; split the rules across several files in the rules directory" : "")
    }

    /// An empty document: what an unreadable or dropped file holds.
    private static let emptyDocument = TOMLParser.parse(bytes: []).partialRoot

    /// Lets go of the parsed document once everything about it has been read and reported:
    /// its diagnostics stay, but positions are no longer known (a later report has none), so
    /// a caller keeps the positions it will still need before dropping.
    func dropDocument() {
        if root != nil { root = Self.emptyDocument }
        partialRoot = Self.emptyDocument
    }

    /// Reports an error at a position kept from before the document was dropped.
    func error(_ message: String, atPosition position: TOMLPosition?) {
        reported.append(diagnostic(.error, message, at: position))
        errorCount += 1
    }

    /// Reports an error about the value at `path` (at its key's position when it is known).
    func error(_ message: String, at path: TOMLKeyPath) {
        report(.error, message, at: path)
    }

    /// Reports a warning about the value at `path`.
    func warning(_ message: String, at path: TOMLKeyPath) {
        report(.warning, message, at: path)
    }

    /// Reports that the table at `table` lacks one of `keys` (at the table's position), unless
    /// an unknown key of that table turns out to be a misspelling of one of them.
    func missing(_ message: String, keys: [String], in table: TOMLKeyPath) {
        missing.append((keys, table, diagnostic(.error, message, at: table)))
        errorCount += 1
    }

    /// Notes that `key` was suggested for an unknown key of the table at `table`.
    func suggested(_ key: String, in table: TOMLKeyPath) {
        suggested[table, default: []].insert(key)
    }

    private func report(_ severity: Diagnostic.Severity, _ message: String, at path: TOMLKeyPath) {
        reported.append(diagnostic(severity, message, at: path))
        if severity == .error { errorCount += 1 }
    }

    private func diagnostic(_ severity: Diagnostic.Severity, _ message: String, at path: TOMLKeyPath) -> Diagnostic {
        diagnostic(severity, message, at: position(of: path))
    }

    private func diagnostic(_ severity: Diagnostic.Severity, _ message: String, at position: TOMLPosition?) -> Diagnostic {
        Diagnostic(severity, path: displayPath, line: position?.line, column: position?.column, message: message)
    }

    /// `PATH:LINE` of `path` (or `PATH` when its position is unknown), to point at it from a
    /// diagnostic about another place.
    func location(of path: TOMLKeyPath) -> String {
        location(at: position(of: path))
    }

    /// `PATH:LINE` of a position (`PATH` when it is unknown).
    func location(at position: TOMLPosition?) -> String {
        guard let position else { return displayPath }
        return "\(displayPath):\(position.line)"
    }

    /// The best position for a diagnostic about `path`: where its key is written (a table's
    /// own `[header]` when it has one, an array element's first character), else the same
    /// for the nearest part of the path that is written; `nil` for the root or when nothing is.
    ///
    /// A walk down the parsed document, as long as the path: no index of paths is kept.
    func position(of path: TOMLKeyPath) -> TOMLPosition? {
        var current = TOMLValue.table(partialRoot)
        var best: TOMLPosition?
        for component in path.components {
            switch (component, current) {
            case (.key(let key), .table(let table)):
                guard let entry = table.entry(key) else { return best }
                best = entry.value.table?.headerPosition ?? entry.keyPosition
                current = entry.value
            case (.index(let index), .array(let array)):
                guard index >= 0, index < array.count else { return best }
                best = array.positions[index]
                current = array.elements[index]
            default:
                return best
            }
        }
        return best
    }
}
