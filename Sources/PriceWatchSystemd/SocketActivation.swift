import CSystemd
import Glibc

/// Listening sockets passed by systemd (socket activation: `LISTEN_PID`, `LISTEN_FDS`,
/// `LISTEN_FDNAMES`, read through libsystemd's `sd_listen_fds_with_names`).
public enum SocketActivation {
    /// The file descriptor `FileDescriptorName=` calls `name`, or the only one passed when there
    /// is exactly one; nil when none was passed to this process. The `LISTEN_*` variables are
    /// removed from the environment, so no child process mistakes them for its own. Call once,
    /// at start.
    public static func takeSocket(named name: String) -> Int32? {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = sd_listen_fds_with_names(1, &names)
        guard count > 0 else { return nil }
        var found: [(descriptor: Int32, name: String)] = []
        for index in 0..<Int(count) {
            let text = names?[index].map { String(cString: $0) } ?? "unknown"
            found.append((SD_LISTEN_FDS_START + Int32(index), text))
            free(names?[index])
        }
        free(names)
        if let match = found.first(where: { $0.name == name }) { return match.descriptor }
        return found.count == 1 ? found[0].descriptor : nil
    }

    /// Whether the socket `descriptor` is bound to a loopback address (127.0.0.0/8 or ::1).
    public static func isLoopback(_ descriptor: Int32) -> Bool {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let bound = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { return false }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) >> 24 == 127 }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    withUnsafeBytes(of: address.pointee.sin6_addr) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
                }
            }
        case AF_UNIX:
            return true
        default:
            return false
        }
    }
}
