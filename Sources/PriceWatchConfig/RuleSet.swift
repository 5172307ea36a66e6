import Foundation
import Synchronization
import PriceWatchCore

/// The rule files under a `rules` path, each read and checked, and their rules.
struct RuleSet {
    /// Every file read, in lexical order (one file when the path names a file).
    private(set) var files: [ConfigFile] = []
    /// Every rule of every file, in file order.
    private(set) var drafts: [RuleDraft] = []

    /// Reads the rule file at `absolutePath`, or every `*.toml` file of that directory in
    /// lexical order (names starting with `.` are skipped: editors' temporary files). Paths in
    /// diagnostics start with `displayPath`. `nil` when nothing is at the path.
    static func read(displayPath: String, absolutePath: String) -> RuleSet? {
        var set = RuleSet()
        switch ConfigPaths.kind(of: absolutePath) {
        case .missing:
            return nil
        case .file:
            set.add(ConfigFile.read(absolutePath: absolutePath, displayPath: displayPath, what: "rule file"))
        case .directory:
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: absolutePath)
            } catch {
                set.add(ConfigFile.unreadable(displayPath: displayPath,
                                              reason: "cannot list the rules directory: \(ConfigPaths.describe(error))"))
                return set
            }
            let ruleFiles = names
                .filter { $0.hasSuffix(".toml") && !$0.hasPrefix(".") }
                .filter { ConfigPaths.kind(of: ConfigPaths.join(absolutePath, $0)) == .file }
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let loaded = readConcurrently(ruleFiles.map { name in
                (absolute: ConfigPaths.join(absolutePath, name), display: ConfigPaths.join(displayPath, name))
            })
            for file in loaded {
                set.files.append(file.file)
                set.drafts += file.drafts
            }
        }
        set.checkDuplicateIDs()
        return set
    }

    /// One rule file read and checked: handed from the thread that read it to the caller once
    /// every file is done, and never shared while being read.
    private struct LoadedFile: @unchecked Sendable {
        let file: ConfigFile
        let drafts: [RuleDraft]
    }

    /// The results of the reading threads, one slot per file.
    private final class LoadedFiles: Sendable {
        let slots: Mutex<[LoadedFile?]>
        let next = Atomic<Int>(0)

        init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }
    }

    /// Reads and checks each file (`absolute` path, `display` path for diagnostics) on every
    /// core: files share nothing while they are read (each has its own parse tree and
    /// diagnostics), and with many files parsing is most of loading. The results keep the
    /// files' order, so diagnostics and rules are the same as read one after another.
    ///
    /// Plain threads, not libdispatch's workers: those try to raise their priority, which the
    /// service's sandbox refuses with a line in the journal on every start.
    private static func readConcurrently(_ paths: [(absolute: String, display: String)]) -> [LoadedFile] {
        let threads = min(paths.count, max(ProcessInfo.processInfo.activeProcessorCount, 1))
        guard threads > 1 else { return paths.map(readFile) }
        let results = LoadedFiles(count: paths.count)
        let finished = DispatchGroup()
        for _ in 0..<threads {
            finished.enter()
            Thread {
                while true {
                    let index = results.next.add(1, ordering: .relaxed).oldValue
                    guard index < paths.count else { break }
                    let loaded = readFile(paths[index])
                    results.slots.withLock { $0[index] = loaded }
                }
                finished.leave()
            }.start()
        }
        finished.wait()
        return results.slots.withLock { $0 }.compactMap { $0 }
    }

    @Sendable
    private static func readFile(_ path: (absolute: String, display: String)) -> LoadedFile {
        let file = ConfigFile.read(absolutePath: path.absolute, displayPath: path.display, what: "rule file")
        return LoadedFile(file: file, drafts: RuleReader.read(file))
    }

    private mutating func add(_ file: ConfigFile) {
        files.append(file)
        drafts += RuleReader.read(file)
    }

    /// Reports each id used again, at its second use, naming where it was first defined.
    private func checkDuplicateIDs() {
        // Offsets, not drafts, as values: a draft is large, and this table holds every rule.
        var first: [String: Int] = [:]
        first.reserveCapacity(drafts.count)
        for (offset, draft) in drafts.enumerated() {
            guard let id = draft.id else { continue }
            if let originalOffset = first[id] {
                let original = drafts[originalOffset]
                let location = original.reader.file.location(of: original.reader.path.appending("id"))
                draft.reader.tableError("duplicate id; first defined at \(location)", at: "id")
            } else {
                first[id] = offset
            }
        }
    }

    /// The diagnostics of every file.
    var diagnostics: [Diagnostic] { files.flatMap(\.diagnostics) }
}
