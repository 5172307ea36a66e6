#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates the directory a database file lives in, with its missing parents (like `mkdir -p`).
///
/// POSIX calls rather than `FileManager`, so the reason in an error is the system's own
/// (`Permission denied`), not a sentence about "saving the file".
enum ParentDirectory {
    /// Why a directory could not be made.
    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    /// Makes sure the directory that contains `path` exists.
    static func create(for path: String) throws(Failure) {
        let directory = parent(of: path)
        guard !directory.isEmpty else { return }
        try ensure(directory)
    }

    /// The directory part of `path`: `/var/lib/pricewatch` for `/var/lib/pricewatch/x.db`,
    /// `/` for `/x.db`, empty for a bare file name (the working directory).
    static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        var result = trimmed[..<slash]
        while result.count > 1, result.hasSuffix("/") { result = result.dropLast() }
        return String(result)
    }

    private static func ensure(_ directory: String) throws(Failure) {
        if isDirectory(directory) { return }
        let above = parent(of: directory)
        if !above.isEmpty, above != directory { try ensure(above) }
        if mkdir(directory, 0o755) != 0 {
            let code = errno
            // EEXIST: another process made it meanwhile, or a file is in the way (checked below).
            guard code == EEXIST else {
                throw Failure(description: "cannot create directory \(directory): \(String(cString: strerror(code)))")
            }
        }
        guard isDirectory(directory) else {
            throw Failure(description: "\(directory) exists and is not a directory")
        }
    }

    /// Whether something exists at `path` (following symbolic links).
    static func fileExists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }
}
