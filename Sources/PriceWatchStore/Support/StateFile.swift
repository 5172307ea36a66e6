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

    /// Removes `path` if it exists.
    static func remove(_ path: String) {
        _ = unlink(path)
    }
}
