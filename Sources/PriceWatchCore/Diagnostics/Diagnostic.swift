/// One error or warning about an input file, in the form of `docs/commands.md`:
/// `PATH:LINE:COLUMN: error: MESSAGE` when the position is known, else `PATH: error: MESSAGE`.
///
/// Messages start lowercase, name the rule id or key path, and say what was expected and what
/// was found. They never contain a secret.
public struct Diagnostic: Sendable, Hashable, Error, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Sendable, Hashable {
        case error
        case warning
    }

    public var severity: Severity
    /// The file as the user named it (relative paths stay relative).
    public var path: String
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(_ severity: Severity, path: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.severity = severity
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    public static func error(_ message: String, path: String, line: Int? = nil, column: Int? = nil) -> Diagnostic {
        Diagnostic(.error, path: path, line: line, column: column, message: message)
    }

    public static func warning(_ message: String, path: String, line: Int? = nil, column: Int? = nil) -> Diagnostic {
        Diagnostic(.warning, path: path, line: line, column: column, message: message)
    }

    /// One line: control characters in the path or the message (a value quoted from the
    /// file) are escaped (``ControlCharacters``), so no diagnostic can forge another line.
    public var description: String {
        var location = ControlCharacters.escaped(path)
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        return "\(location): \(severity.rawValue): \(ControlCharacters.escaped(message))"
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error (warnings alone do not fail a command).
    public var containsErrors: Bool { contains { $0.severity == .error } }

    /// Sorted for stable output: by path, then line, then column, keeping the order of
    /// diagnostics at the same place.
    public func sortedByLocation() -> [Diagnostic] {
        enumerated().sorted { a, b in
            let l = a.element, r = b.element
            if l.path != r.path { return l.path < r.path }
            if (l.line ?? 0) != (r.line ?? 0) { return (l.line ?? 0) < (r.line ?? 0) }
            if (l.column ?? 0) != (r.column ?? 0) { return (l.column ?? 0) < (r.column ?? 0) }
            return a.offset < b.offset
        }.map(\.element)
    }
}
