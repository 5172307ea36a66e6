import Foundation
import PriceWatchCore

/// One configuration file being checked: its parsed table, where its keys are written, and
/// the diagnostics found in it so far.
///
/// A reference type so that the readers of its tables can all report into it; it lives for
/// one synchronous load and is never shared between tasks.
final class ConfigFile {
    /// The path shown in diagnostics, as the user wrote it (relative paths stay relative).
    let displayPath: String
    /// The root table; `nil` when the file could not be read or is not valid TOML.
    let root: [String: ConfigValue]?
    let sourceMap: TOMLSourceMap
    private(set) var diagnostics: [Diagnostic] = []

    /// How many errors (not warnings) have been reported so far; readers compare it before
    /// and after reading a table to know whether the table was valid.
    var errorCount: Int { diagnostics.count { $0.severity == .error } }

    /// Checks `text` as the contents of `displayPath`.
    init(text: String, displayPath: String) {
        self.displayPath = displayPath
        sourceMap = TOMLSourceMap(text: text)
        switch ConfigValue.parse(text) {
        case .success(let root):
            self.root = root
        case .failure(let error):
            root = nil
            diagnostics.append(.error(Self.syntaxMessage(error.message), path: displayPath,
                                      line: error.line, column: error.column))
        }
    }

    /// A file that could not be read at all, with `reason` as its one error.
    static func unreadable(displayPath: String, reason: String) -> ConfigFile {
        ConfigFile(unreadable: displayPath, reason: reason)
    }

    private init(unreadable displayPath: String, reason: String) {
        self.displayPath = displayPath
        root = nil
        sourceMap = TOMLSourceMap(text: "")
        diagnostics = [.error(reason, path: displayPath)]
    }

    /// Reads and parses the file at `absolutePath`; problems (missing, unreadable, not UTF-8,
    /// not TOML) become its diagnostics.
    static func read(absolutePath: String, displayPath: String, what: String) -> ConfigFile {
        if let reason = ConfigPaths.unreadableReason(absolutePath) {
            return ConfigFile(unreadable: displayPath, reason: "cannot read the \(what): \(reason)")
        }
        guard let data = FileManager.default.contents(atPath: absolutePath) else {
            return ConfigFile(unreadable: displayPath, reason: "cannot read the \(what)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return ConfigFile(unreadable: displayPath, reason: "cannot read the \(what): it is not UTF-8 text")
        }
        return ConfigFile(text: text, displayPath: displayPath)
    }

    /// toml++ writes `Error while parsing ...`; diagnostics start lowercase.
    private static func syntaxMessage(_ message: String) -> String {
        var text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        if let first = text.first, first.isUppercase, text.dropFirst().first?.isLowercase ?? false {
            text = first.lowercased() + text.dropFirst()
        }
        return "invalid TOML: " + text
    }

    /// Reports an error about the value at `path` (at its key's position when it is known).
    func error(_ message: String, at path: TOMLKeyPath) {
        report(.error, message, at: path)
    }

    /// Reports a warning about the value at `path`.
    func warning(_ message: String, at path: TOMLKeyPath) {
        report(.warning, message, at: path)
    }

    private func report(_ severity: Diagnostic.Severity, _ message: String, at path: TOMLKeyPath) {
        let position = sourceMap.position(of: path)
        diagnostics.append(Diagnostic(severity, path: displayPath, line: position?.line,
                                      column: position?.column, message: message))
    }

    /// `PATH:LINE` of `path` (or `PATH` when its position is unknown), to point at it from a
    /// diagnostic about another place.
    func location(of path: TOMLKeyPath) -> String {
        guard let position = sourceMap.position(of: path) else { return displayPath }
        return "\(displayPath):\(position.line)"
    }

    /// The keys of the table at `path`, in the order they are written in the file (keys the
    /// scan did not find come last, by name).
    func keysInFileOrder(_ table: [String: ConfigValue], at path: TOMLKeyPath) -> [String] {
        table.keys.sorted { a, b in
            let pa = sourceMap.firstMention(of: path.appending(a))
            let pb = sourceMap.firstMention(of: path.appending(b))
            switch (pa, pb) {
            case let (x?, y?) where x != y: return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a < b
            }
        }
    }
}
