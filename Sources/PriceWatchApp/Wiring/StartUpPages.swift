#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Unmaps the read-only pages of code and constant data that start-up touched, once, so the
/// process keeps resident only what the running daemon uses.
///
/// Start-up runs code that never runs again (argument parsing, configuration loading, schema
/// checks, opening and migrating the store) and the kernel maps 64 KB around every page it
/// faults in: after the first poll, most of the executable's resident code and most of what the
/// shared libraries' loading touched (symbol tables, relocations) is start-up's. `madvise(2)`
/// with `MADV_DONTNEED` drops those page-table entries; the pages stay in the page cache, and a
/// page the daemon touches again is mapped back on its next use, read from the same file.
///
/// Only mappings that can hold nothing but the file's own bytes are released: private,
/// not writable, backed by a file, and with no anonymous (copied-on-write) page, which is what a
/// relocated read-only segment (RELRO) has. Pages the process wrote are never dropped, so the
/// release cannot lose a byte; at worst it costs a few page faults.
/// docs/benchmarks.md, "What the idle daemon maps", has the figures.
enum StartUpPages {
    /// One mapping of `/proc/self/smaps` that may be released.
    struct Mapping: Equatable {
        let start: UInt
        let end: UInt
    }

    private static let released = Mutex(false)

    /// Releases the start-up pages the first time it is called; later calls do nothing.
    static func releaseOnce() {
        let first = released.withLock { done in
            defer { done = true }
            return !done
        }
        if first { release() }
    }

    /// Releases the pages of every releasable mapping now, and returns how many mappings.
    @discardableResult
    static func release() -> Int {
        guard let smaps = readSmaps() else { return 0 }
        var count = 0
        for mapping in releasable(inSmaps: smaps) {
            #if canImport(Glibc)
            if madvise(UnsafeMutableRawPointer(bitPattern: mapping.start), Int(mapping.end - mapping.start), MADV_DONTNEED) == 0 {
                count += 1
            }
            #endif
        }
        return count
    }

    /// The mappings of an `smaps` listing that hold only their file's bytes: permissions
    /// `r--p` or `r-xp`, a path that is a file (not `[vdso]`, `[stack]`, or anonymous), and
    /// `Anonymous: 0 kB`. Anything the listing does not say clearly is left alone.
    static func releasable(inSmaps smaps: Substring) -> [Mapping] {
        var result: [Mapping] = []
        var candidate: Mapping?
        var anonymousSeen = false
        func close() {
            if let candidate, anonymousSeen { result.append(candidate) }
            candidate = nil
            anonymousSeen = false
        }
        for line in smaps.split(separator: "\n", omittingEmptySubsequences: true) {
            if case .header(let mapping) = kind(of: line) {
                close()
                candidate = mapping
                continue
            }
            guard candidate != nil, line.hasPrefix("Anonymous:") else { continue }
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, fields[1] == "0" {
                anonymousSeen = true
            } else {
                candidate = nil
            }
        }
        close()
        return result
    }

    private enum Line {
        /// A mapping's first line, with the mapping when it may be released.
        case header(Mapping?)
        /// One of a mapping's `Key: value` lines.
        case field
    }

    /// What a line of `smaps` is; a mapping's first line is `start-end perms offset dev inode path`.
    private static func kind(of line: Substring) -> Line {
        let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
        // Header lines are the only ones whose first field is an address range.
        guard fields.count >= 5, let dash = fields[0].firstIndex(of: "-"),
              let start = UInt(fields[0][..<dash], radix: 16),
              let end = UInt(fields[0][fields[0].index(after: dash)...], radix: 16) else { return .field }
        let permissions = fields[1]
        let path = fields.count == 6 ? fields[5].drop(while: { $0 == " " }) : ""
        guard permissions == "r--p" || permissions == "r-xp", path.hasPrefix("/"), end > start else {
            return .header(nil)
        }
        return .header(Mapping(start: start, end: end))
    }

    static func readSmaps() -> Substring? {
        #if canImport(Glibc)
        let descriptor = open("/proc/self/smaps", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return Substring(decoding: bytes, as: UTF8.self)
        #else
        return nil
        #endif
    }
}
