import Foundation

/// Path arithmetic for configuration files, done on strings so that paths shown in
/// diagnostics stay exactly as the user wrote them.
enum ConfigPaths {
    /// The directory part of `path`: `etc/pricewatch` for `etc/pricewatch/pricewatch.toml`,
    /// `""` for `pricewatch.toml`, `/` for `/pricewatch.toml`.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// `relative` joined to `base` as written (no normalisation); an absolute `relative`, or
    /// an empty `base`, gives `relative` unchanged.
    static func join(_ base: String, _ relative: String) -> String {
        if relative.hasPrefix("/") || base.isEmpty { return relative }
        return base.hasSuffix("/") ? base + relative : base + "/" + relative
    }

    /// `path` made absolute against `base` (itself made absolute against the current
    /// directory), with `.` and `..` components resolved lexically.
    static func absolute(_ path: String, relativeTo base: String = "") -> String {
        var full = join(base, path)
        if !full.hasPrefix("/") { full = join(FileManager.default.currentDirectoryPath, full) }
        var parts: [Substring] = []
        for part in full.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// What is at `path`.
    enum Kind: Equatable {
        case missing
        case directory
        case file
    }

    static func kind(of path: String) -> Kind {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
        return isDirectory.boolValue ? .directory : .file
    }

    /// Why a file cannot be read, for messages (`no such file`, `is a directory`, ...); `nil`
    /// when it is a readable file.
    static func unreadableReason(_ path: String) -> String? {
        switch kind(of: path) {
        case .missing: return "no such file"
        case .directory: return "is a directory, not a file"
        case .file: return FileManager.default.isReadableFile(atPath: path) ? nil : "permission denied"
        }
    }

    /// A file-system error in a few words, for messages.
    static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let message = strerror(Int32(underlying.code)) {
            return String(cString: message).lowercased()
        }
        return nsError.localizedDescription
    }
}
