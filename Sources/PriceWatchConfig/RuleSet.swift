import Foundation
import Synchronization
import PriceWatchCore
import PriceWatchTOML

/// The rule files under a `rules` path, each read, checked and finished, and their rules.
///
/// Each file is handled whole on one thread: parsed, its `[[rule]]` tables read into drafts,
/// each draft finished into a rule (the loader applies the main file's defaults there), and
/// then its parse tree dropped. Only the finished rules and, per rule, what the check of ids
/// across files needs are kept, so a large configuration never holds every file's tree and
/// every draft at once (with 100,000 rules, those were most of the loader's memory).
struct RuleSet {
    /// Turns one draft into the rule to keep, or nil to keep none (reporting to the draft's
    /// file why, when there is a reason). Runs on the file's reading thread, while the file's
    /// parse tree is alive, so reports about any key of the rule have their position.
    typealias Finish = @Sendable (RuleDraft) -> Rule?
    /// ``Finish`` for an event rule's draft (a table with `event`): the event rule to keep, or nil.
    typealias FinishEvent = @Sendable (RuleDraft) -> EventRule?

    /// Every file read, in lexical order (one file when the path names a file).
    private(set) var files: [ConfigFile] = []
    /// Every finished rule of every file, in file order.
    private(set) var rules: [Rule] = []
    /// Every finished event rule of every file, in file order.
    private(set) var eventRules: [EventRule] = []
    /// How many `[[rule]]` tables were read, finished or not.
    private(set) var draftCount = 0
    /// Per file, in the order of ``files``: what a ``RuleFileCache`` keeps of it.
    private var records: [FileRecord] = []

    /// One file of the set as a ``RuleFileCache`` would keep it.
    private struct FileRecord {
        let absolutePath: String
        /// Nil when the file could not be read.
        let fingerprint: RuleFileCache.Fingerprint?
        /// Its rules in ``rules``.
        let rules: Range<Int>
        /// Where each rule's written `id` is, in file order.
        let idPositions: [TOMLPosition?]
    }

    /// Reads the rule file at `absolutePath`, or every `*.toml` file of that directory in
    /// lexical order (names starting with `.` are skipped: editors' temporary files), and
    /// finishes each rule with `finish`. Paths in diagnostics start with `displayPath`. `nil`
    /// when nothing is at the path.
    ///
    /// A file whose contents are those `kept` holds is not parsed again: its kept rules are
    /// used (`kept` must have been made against the same `finish`). With `plain` (whose
    /// resolver must be the one `finish` applies), a plain file is read by it first.
    static func read(displayPath: String, absolutePath: String, kept: RuleFileCache.Generation? = nil,
                     plain: PlainRuleFileReader? = nil, finish: @escaping Finish,
                     finishEvent: @escaping FinishEvent = { _ in nil }) -> RuleSet? {
        var loaded: [LoadedFile] = []
        var duplicates = DuplicateIDCheck()
        var fileCount = 1
        // Each file's ids are checked as soon as it and the files before it are read, on the
        // calling thread, while the reading threads go on with the next files.
        let take = { (file: LoadedFile) in
            // Files are usually alike: room for as many ids in each as in the first.
            if loaded.isEmpty { duplicates.reserveCapacity(file.marks.count * fileCount) }
            duplicates.check(file.marks, of: file.file)
            loaded.append(file)
        }
        switch ConfigPaths.kind(of: absolutePath) {
        case .missing:
            return nil
        case .file:
            take(readFile((absolute: absolutePath, display: displayPath), kept: kept, plain: plain, finish: finish,
                          finishEvent: finishEvent))
        case .directory:
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: absolutePath)
            } catch {
                var set = RuleSet()
                set.files = [ConfigFile.unreadable(displayPath: displayPath,
                                                   reason: "cannot list the rules directory: \(ConfigPaths.describe(error))")]
                return set
            }
            let ruleFiles = names
                .filter { $0.hasSuffix(".toml") && !$0.hasPrefix(".") }
                .filter { ConfigPaths.kind(of: ConfigPaths.join(absolutePath, $0)) == .file }
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            fileCount = ruleFiles.count
            readConcurrently(ruleFiles.map { name in
                (absolute: ConfigPaths.join(absolutePath, name), display: ConfigPaths.join(displayPath, name))
            }, kept: kept, plain: plain, finish: finish, finishEvent: finishEvent, inOrder: take)
        }
        var set = RuleSet()
        set.files = loaded.map(\.file)
        set.draftCount = loaded.reduce(0) { $0 + $1.draftCount }
        set.eventRules = loaded.flatMap(\.events)
        var start = 0
        // Before the join, which empties the buffers.
        for file in loaded {
            set.records.append(FileRecord(absolutePath: file.absolutePath, fingerprint: file.fingerprint,
                                          rules: start..<(start + file.rules.count), idPositions: file.marks.map(\.position)))
            start += file.rules.count
        }
        set.rules = RuleBuffer.join(loaded.map(\.rules))
        return set
    }

    /// One rule file read, checked and finished (or taken unchanged from a ``RuleFileCache``):
    /// handed from the thread that read it to the caller, and never shared while being read.
    private struct LoadedFile: @unchecked Sendable {
        let absolutePath: String
        let fingerprint: RuleFileCache.Fingerprint?
        let file: ConfigFile
        let rules: RuleBuffer.FileRules
        let marks: [DuplicateIDCheck.Mark]
        let draftCount: Int
        var events: [EventRule] = []
    }

    /// The results of the reading threads, one slot per file, each handed to the caller once
    /// it is filled (``take(_:)``).
    private final class LoadedFiles: @unchecked Sendable {
        /// Guards ``slots``; signalled whenever a slot is filled.
        private let filled = NSCondition()
        private var slots: [LoadedFile?]
        let next = Atomic<Int>(0)

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        func fill(_ index: Int, with file: LoadedFile) {
            filled.lock()
            slots[index] = file
            filled.broadcast()
            filled.unlock()
        }

        /// The file of slot `index`, once a reading thread has filled it (the slot is emptied).
        func take(_ index: Int) -> LoadedFile {
            filled.lock()
            defer { filled.unlock() }
            while true {
                if let file = slots[index] {
                    slots[index] = nil
                    return file
                }
                filled.wait()
            }
        }
    }

    /// Reads, checks and finishes each file (`absolute` path, `display` path for diagnostics)
    /// on every core: files share nothing while they are read (each has its own parse tree and
    /// diagnostics), and with many files parsing is most of loading. Each file is handed to
    /// `inOrder`, on the calling thread, in the files' order, as soon as it and every file
    /// before it are read: diagnostics and rules are the same as read one after another.
    ///
    /// Plain threads, not libdispatch's workers: those try to raise their priority, which the
    /// service's sandbox refuses with a line in the journal on every start.
    private static func readConcurrently(_ paths: [(absolute: String, display: String)], kept: RuleFileCache.Generation?,
                                         plain: PlainRuleFileReader?, finish: @escaping Finish,
                                         finishEvent: @escaping FinishEvent, inOrder: (LoadedFile) -> Void) {
        let threads = min(paths.count, max(ProcessInfo.processInfo.activeProcessorCount, 1))
        guard threads > 1 else {
            for path in paths { inOrder(readFile(path, kept: kept, plain: plain, finish: finish, finishEvent: finishEvent)) }
            return
        }
        let results = LoadedFiles(count: paths.count)
        for _ in 0..<threads {
            Thread {
                while true {
                    let index = results.next.add(1, ordering: .relaxed).oldValue
                    guard index < paths.count else { break }
                    results.fill(index, with: readFile(paths[index], kept: kept, plain: plain, finish: finish,
                                                       finishEvent: finishEvent))
                }
            }.start()
        }
        // Every slot is taken, so every file is read when this returns.
        for index in paths.indices { inOrder(results.take(index)) }
    }

    private static func readFile(_ path: (absolute: String, display: String), kept: RuleFileCache.Generation?,
                                 plain: PlainRuleFileReader?, finish: Finish, finishEvent: FinishEvent) -> LoadedFile {
        let bytes: [UInt8]
        switch ConfigFile.readBytes(absolutePath: path.absolute, displayPath: path.display, what: "rule file") {
        case .success(let read):
            bytes = read
        case .failure(let unreadable):
            return LoadedFile(absolutePath: path.absolute, fingerprint: nil, file: unreadable.file, rules: .read(RuleBuffer(capacity: 0)),
                              marks: [], draftCount: 0)
        }
        let fingerprint = RuleFileCache.Fingerprint(bytes)
        if let entry = kept?.entry(at: path.absolute, fingerprint: fingerprint) {
            var marks: [DuplicateIDCheck.Mark] = []
            marks.reserveCapacity(entry.rules.count)
            for (rule, position) in zip(entry.rules, entry.idPositions) {
                marks.append(DuplicateIDCheck.Mark(id: rule.id, position: position))
            }
            return LoadedFile(absolutePath: path.absolute, fingerprint: fingerprint, file: ConfigFile.unchanged(displayPath: path.display),
                              rules: .kept(entry.rules), marks: marks, draftCount: entry.rules.count)
        }
        if let read = plain?.read(bytes) {
            return LoadedFile(absolutePath: path.absolute, fingerprint: fingerprint, file: ConfigFile.readPlainly(displayPath: path.display),
                              rules: .read(read.rules), marks: read.marks, draftCount: read.rules.count)
        }
        let file = ConfigFile(bytes: bytes, displayPath: path.display, what: "rule file")
        let rules = RuleBuffer(capacity: RuleReader.tableCount(of: file))
        var marks: [DuplicateIDCheck.Mark] = []
        marks.reserveCapacity(rules.capacity)
        var events: [EventRule] = []
        let draftCount = RuleReader.read(file) { draft in
            if let id = draft.id { marks.append(DuplicateIDCheck.Mark(id: id, position: draft.idPosition)) }
            if draft.reader.has("event") {
                if let event = finishEvent(draft) { events.append(event) }
            } else if let rule = finish(draft) {
                rules.append(rule)
            }
        }
        file.dropDocument()
        return LoadedFile(absolutePath: path.absolute, fingerprint: fingerprint, file: file, rules: .read(rules), marks: marks,
                          draftCount: draftCount, events: events)
    }

    /// What a ``RuleFileCache`` keeps of this set, its rules finished against `context`: every
    /// file without a diagnostic whose every `[[rule]]` table became a rule with its id.
    func keptFiles(context: RuleFileCache.Context) -> RuleFileCache.Generation {
        var entries: [String: RuleFileCache.Entry] = [:]
        for (record, file) in zip(records, files) {
            guard let fingerprint = record.fingerprint, file.diagnostics.isEmpty,
                  record.idPositions.count == record.rules.count else { continue }
            let positions = record.idPositions.compactMap { $0 }
            guard positions.count == record.rules.count else { continue }
            entries[record.absolutePath] = RuleFileCache.Entry(fingerprint: fingerprint, rules: rules[record.rules],
                                                               idPositions: positions)
        }
        return RuleFileCache.Generation(context: context, entries: entries)
    }

    /// The diagnostics of every file.
    var diagnostics: [Diagnostic] { files.flatMap(\.diagnostics) }
}
