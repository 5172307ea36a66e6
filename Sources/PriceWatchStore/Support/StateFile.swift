#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Facts about the state file that SQLite does not tell: whether it is empty, whether its file
/// system is mounted read-only; and the atomic creation of a new file.
enum StateFile {
    /// The size of the file at `path` in bytes, or nil when there is none (or it cannot be
    /// examined).
    static func size(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// Whether the file system holding `path` is mounted read-only (`ST_RDONLY`).
    static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return false }
        return info.f_flag & UInt(ST_RDONLY) != 0
    }

    /// Moves `source` to `destination` in one step (`rename(2)`); the reason is the system's.
    static func rename(_ source: String, to destination: String) -> String? {
        #if canImport(Glibc)
        let result = Glibc.rename(source, destination)
        #elseif canImport(Musl)
        let result = Musl.rename(source, destination)
        #else
        let result = Darwin.rename(source, destination)
        #endif
        return result == 0 ? nil : String(cString: strerror(errno))
    }

    /// Writes the file at `path` through to the disk; nil, or why it could not be.
    static func synchronize(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        return fsync(descriptor) == 0 ? nil : String(cString: strerror(errno))
    }

    /// Removes `path` if it exists.
    static func remove(_ path: String) {
        _ = unlink(path)
    }

    /// Which file `path` names: its device and inode, nil when it names none.
    static func identity(_ path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// A file's device and inode: the same path names another file once this changes.
    struct Identity: Sendable, Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// The marker beside the state file (`PATH.marker`), written when pricewatch first opens
    /// the file to write it: with the marker there, a missing state file is a lost state.
    static func marker(of path: String) -> String { path + ".marker" }

    /// The note written when the file at `path` was found replaced under the daemon: while it
    /// exists, no start uses the file (``StoreError/replacedSinceUse(path:)``).
    static func replacedNote(of path: String) -> String { path + ".replaced" }

    /// Writes the note of a replaced state file; a failure is ignored (the daemon stops anyway).
    static func writeReplacedNote(_ path: String) {
        let note = replacedNote(of: path)
        let descriptor = open(note, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        let text = Array("the state database beside this file was replaced while pricewatch had it open; pricewatch does not use it until this file is deleted (check first that it is the state you want: one older than what pricewatch wrote delivers again the alerts delivered since).\n".utf8)
        _ = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    /// Whether the marker of `path` exists.
    static func hasMarker(_ path: String) -> Bool { identity(marker(of: path)) != nil }

    /// Writes the marker of `path` if it is missing; a failure is ignored (the marker only makes
    /// a later loss better explained).
    static func writeMarker(_ path: String) {
        let marker = marker(of: path)
        guard identity(marker) == nil else { return }
        let descriptor = open(marker, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        let text = Array("pricewatch has used the state database beside this file; while this file exists, a missing state database is a lost state, not a first start. Delete this file to start afresh.\n".utf8)
        _ = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }
}
