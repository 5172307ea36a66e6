#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens a file of prices for reading only when it is a regular file: a device (`/dev/zero`),
/// a FIFO or a socket would be read forever or block, and a directory cannot be read.
///
/// The file is opened without blocking (opening a FIFO with no writer would wait), checked
/// with `fstat`, then switched back to blocking reads.
enum RegularFile {
    /// Why the file cannot be read, in words for `cannot read the price data: REASON`.
    struct Failure: Error {
        let reason: String
    }

    /// A descriptor the caller closes, or why the file cannot be read.
    static func opening(_ path: String) -> Result<Int32, Failure> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ENOENT ? "no such file" : errno == EACCES ? "permission denied" : String(cString: strerror(errno))
            return .failure(Failure(reason: reason))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            return .failure(Failure(reason: reason))
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(descriptor)
            return .failure(Failure(reason: "expected a regular file, found \(describe(type))"))
        }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        return .success(descriptor)
    }

    private static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "a file of another kind"
        }
    }
}
