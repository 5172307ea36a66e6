#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Holds every free file descriptor below a number open (on /dev/null), so that the next
/// socket the process opens gets a number at or above it: for code that must not depend on
/// small descriptor numbers (select(2)'s 1,024).
final class DescriptorFiller: Sendable {
    private let descriptors: Mutex<[Int32]>

    /// Whether the process may open `count` descriptors, raising its soft limit towards the
    /// hard one if needed.
    static func canOpen(_ count: Int) -> Bool {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return false }
        if limit.rlim_cur >= rlim_t(count) { return true }
        guard limit.rlim_max >= rlim_t(count) else { return false }
        limit.rlim_cur = rlim_t(count)
        return setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0
    }

    init(below ceiling: Int32) throws(FillError) {
        var opened: [Int32] = []
        while true {
            let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                let error = errno
                for descriptor in opened { Glibc.close(descriptor) }
                throw FillError(description: "open /dev/null failed with errno \(error) after \(opened.count) descriptors")
            }
            opened.append(descriptor)
            if descriptor >= ceiling { break }
        }
        descriptors = Mutex(opened)
    }

    /// Closes them; once, however often it is called.
    func close() {
        let open = descriptors.withLock { descriptors in
            defer { descriptors = [] }
            return descriptors
        }
        for descriptor in open { Glibc.close(descriptor) }
    }

    deinit { close() }

    struct FillError: Error, CustomStringConvertible {
        let description: String
    }
}
