#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The permission check of a secret file (`{ file = "PATH" }`): a file that its group or every
/// user may read gives its secret to more than the daemon.
///
/// Only for `file` secrets: a `credential` is a copy systemd makes readable by the service
/// alone, and an `env` secret has no file.
enum SecretFileMode {
    /// The warning for the file at `path`, or nil when neither its group nor others may read it
    /// (or it cannot be examined: reading it reports that).
    static func warning(path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let mode = UInt32(info.st_mode) & 0o777
        let readers = [(UInt32(0o040), "its group"), (UInt32(0o004), "every user")].filter { mode & $0.0 != 0 }.map(\.1)
        guard !readers.isEmpty else { return nil }
        let octal = String(mode, radix: 8)
        return "secret file '\(path)' is readable by \(readers.joined(separator: " and ")) (mode \(String(repeating: "0", count: max(0, 4 - octal.count)) + octal)); "
            + "make it readable by its owner only (chmod 600), or give it to the service as a systemd credential "
            + "({ credential = \"NAME\" } with LoadCredential=NAME:\(path))"
    }
}
