/// Where each key of a TOML text was written, and the raw text of its value.
///
/// This is a locator, not a TOML parser: TOMLKit parses every document and decides what it
/// means; TOMLKit 0.6.0 only reports positions for syntax errors, so this scan exists to put
/// `LINE:COLUMN` on diagnostics about keys, and to recover the literal text of numbers
/// (`3.135`), which TOMLKit hands over as a `Double`.
///
/// The scan goes through the text line by line and tracks:
/// - the current `[table]` header, and for each `[[array.of.tables]]` how many elements it
///   has had, so the third `[[rule]]` is `rule[2]`;
/// - for each `key = value` (dotted keys included), the key's line and column and the value's
///   raw text; keys inside inline tables and elements of arrays are recorded too
///   (`api_key.env`, `symbols[1]`);
/// - comments, and `=`, `#`, `[` or quotes inside strings, which are skipped, as are the
///   continuation lines of multi-line arrays, inline tables and strings.
///
/// It is tolerant: on text it does not understand it skips to the end of the line, and it
/// never traps. A path it did not record simply has no position, and the diagnostic falls
/// back to `PATH: error: ...`. Lines and columns start at 1; columns count Unicode scalars.
struct TOMLSourceMap: Sendable {
    /// A line and column, both starting at 1.
    struct Position: Hashable, Sendable, Comparable {
        let line: Int
        let column: Int

        static func < (lhs: Position, rhs: Position) -> Bool {
            (lhs.line, lhs.column) < (rhs.line, rhs.column)
        }
    }

    /// One `key = value` (or one array element, whose `key` is the element's own position).
    struct Entry: Sendable {
        /// Where the key starts (the first key of a dotted key).
        let key: Position
        /// Where the value starts.
        let value: Position
        /// The value as written, without a trailing comment or trailing spaces
        /// (`3.135`, `"5m"`, `[ "AAPL", "MSFT" ]`).
        let rawValue: String
    }

    private(set) var entries: [TOMLKeyPath: Entry] = [:]
    /// `[table]` and `[[array]]` headers (an array element's path ends in its index).
    private(set) var headers: [TOMLKeyPath: Position] = [:]
    /// The first place where a path or anything below it is written.
    private(set) var firstMentions: [TOMLKeyPath: Position] = [:]

    init(text: String) {
        var scanner = Scanner(text: text)
        scanner.scanDocument()
        entries = scanner.entries
        headers = scanner.headers
        firstMentions = scanner.firstMentions
    }

    /// The `key = value` recorded at `path`, if any.
    func entry(at path: TOMLKeyPath) -> Entry? { entries[path] }

    /// The best position for a diagnostic about `path`: its key, else its table header, else
    /// the first place something below it is written; else the same for its parent, and so on.
    /// `nil` when nothing on the way up was found (the root has no position).
    func position(of path: TOMLKeyPath) -> Position? {
        var current: TOMLKeyPath? = path
        while let candidate = current, !candidate.isEmpty {
            if let entry = entries[candidate] { return entry.key }
            if let header = headers[candidate] { return header }
            if let mention = firstMentions[candidate] { return mention }
            current = candidate.parent
        }
        return nil
    }

    /// Where `path` is first written, for putting keys in file order; `nil` when not found.
    func firstMention(of path: TOMLKeyPath) -> Position? { firstMentions[path] }

    /// The value at `path` when it is written as a plain one-line string without escapes
    /// (`"rules.d"`, `'rules.d'`); `nil` otherwise. Best effort, only for files TOMLKit could
    /// not parse, where no value is known at all.
    func plainString(at path: TOMLKeyPath) -> String? {
        guard let raw = entries[path]?.rawValue, raw.count >= 2,
              let first = raw.first, first == "\"" || first == "'", raw.last == first
        else { return nil }
        let inner = raw.dropFirst().dropLast()
        guard !inner.contains(first), !inner.contains("\\"), !inner.contains("\n") else { return nil }
        return String(inner)
    }
}

// MARK: - The scan

extension TOMLSourceMap {
    /// A cursor over the text's Unicode scalars that keeps the line and column. Every loop
    /// in it consumes at least one scalar per iteration, so it always terminates.
    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0
        var line = 1
        var column = 1
        var entries: [TOMLKeyPath: Entry] = [:]
        var headers: [TOMLKeyPath: Position] = [:]
        var firstMentions: [TOMLKeyPath: Position] = [:]
        /// For each `[[array]]` path, the index of its current element.
        var arrayElements: [TOMLKeyPath: Int] = [:]
        var currentTable = TOMLKeyPath.root
        /// How many arrays and inline tables the cursor is inside.
        var depth = 0
        /// Deeper values are skipped a scalar at a time instead of recursing, so no text can
        /// exhaust the stack (TOMLKit rejects such nesting anyway).
        static let maximumDepth = 32

        init(text: String) { scalars = Array(text.unicodeScalars) }

        var position: Position { Position(line: line, column: column) }
        var atEnd: Bool { index >= scalars.count }

        func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            let target = index + offset
            return target >= 0 && target < scalars.count ? scalars[target] : nil
        }

        mutating func advance() {
            guard index < scalars.count else { return }
            if scalars[index] == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }

        mutating func advance(_ count: Int) {
            for _ in 0..<count { advance() }
        }

        /// Spaces and tabs (and the `\r` of CRLF line ends).
        mutating func skipSpaces() {
            while let scalar = peek(), scalar == " " || scalar == "\t" || scalar == "\r" { advance() }
        }

        /// Up to, not including, the next line feed.
        mutating func skipToLineEnd() {
            while let scalar = peek(), scalar != "\n" { advance() }
        }

        /// Spaces, comments and line feeds, as allowed between array elements.
        mutating func skipTrivia() {
            while let scalar = peek() {
                if scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\n" {
                    advance()
                } else if scalar == "#" {
                    skipToLineEnd()
                } else {
                    return
                }
            }
        }

        mutating func mention(_ path: TOMLKeyPath, at position: Position) {
            for prefix in path.prefixes where firstMentions[prefix] == nil {
                firstMentions[prefix] = position
            }
        }

        mutating func scanDocument() {
            // A byte order mark is not part of the first line's text.
            if peek() == "\u{FEFF}" { index += 1 }
            while !atEnd {
                skipSpaces()
                guard let scalar = peek() else { break }
                switch scalar {
                case "\n":
                    advance()
                case "#":
                    skipToLineEnd()
                case "[":
                    scanHeader()
                    skipToLineEnd()
                default:
                    scanKeyValue(in: currentTable)
                    skipToLineEnd()
                }
            }
        }

        mutating func scanHeader() {
            let start = position
            advance()
            let isArray = peek() == "["
            if isArray { advance() }
            skipSpaces()
            guard let keys = scanKey(), !keys.isEmpty else { return }
            skipSpaces()
            guard peek() == "]" else { return }
            if isArray && peek(1) != "]" { return }
            var path = TOMLKeyPath.root
            for (offset, key) in keys.enumerated() {
                path = path.appending(key)
                if isArray && offset == keys.count - 1 {
                    let element = (arrayElements[path] ?? -1) + 1
                    arrayElements[path] = element
                    path = path.appending(index: element)
                } else if let element = arrayElements[path] {
                    path = path.appending(index: element)
                }
            }
            currentTable = path
            if headers[path] == nil { headers[path] = start }
            mention(path, at: start)
        }

        mutating func scanKeyValue(in table: TOMLKeyPath) {
            let keyStart = position
            guard let keys = scanKey(), !keys.isEmpty else { return }
            skipSpaces()
            guard peek() == "=" else { return }
            advance()
            skipSpaces()
            scanValue(at: table.appending(keys), keyPosition: keyStart)
        }

        /// A simple or dotted key: bare keys, basic strings and literal strings, separated by
        /// dots. `nil` when the text here is not a key.
        mutating func scanKey() -> [String]? {
            var keys: [String] = []
            while true {
                guard let key = scanSimpleKey() else { return nil }
                keys.append(key)
                skipSpaces()
                guard peek() == "." else { return keys }
                advance()
                skipSpaces()
            }
        }

        mutating func scanSimpleKey() -> String? {
            guard let first = peek() else { return nil }
            if first == "\"" {
                advance()
                var key = String.UnicodeScalarView()
                while let scalar = peek(), scalar != "\"", scalar != "\n" {
                    if scalar == "\\" {
                        advance()
                        guard let escaped = scanEscape() else { return nil }
                        key.append(escaped)
                    } else {
                        key.append(scalar)
                        advance()
                    }
                }
                guard peek() == "\"" else { return nil }
                advance()
                return String(key)
            }
            if first == "'" {
                advance()
                var key = String.UnicodeScalarView()
                while let scalar = peek(), scalar != "'", scalar != "\n" {
                    key.append(scalar)
                    advance()
                }
                guard peek() == "'" else { return nil }
                advance()
                return String(key)
            }
            var key = String.UnicodeScalarView()
            while let scalar = peek(), Self.isBareKeyScalar(scalar) {
                key.append(scalar)
                advance()
            }
            return key.isEmpty ? nil : String(key)
        }

        static func isBareKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "_" || scalar == "-"
        }

        /// The scalar an escape stands for; the cursor is just after the backslash.
        mutating func scanEscape() -> Unicode.Scalar? {
            guard let scalar = peek() else { return nil }
            advance()
            switch scalar {
            case "b": return "\u{08}"
            case "t": return "\t"
            case "n": return "\n"
            case "f": return "\u{0C}"
            case "r": return "\r"
            case "e": return "\u{1B}"
            case "\"": return "\""
            case "\\": return "\\"
            case "u", "U":
                let width = scalar == "u" ? 4 : 8
                var value: UInt32 = 0
                for _ in 0..<width {
                    guard let digit = peek(), let nibble = UInt32(String(digit), radix: 16) else { return nil }
                    value = value &* 16 &+ nibble
                    advance()
                }
                return Unicode.Scalar(value)
            default: return nil
            }
        }

        /// Records the value at `path` and moves past it, including its continuation lines.
        mutating func scanValue(at path: TOMLKeyPath, keyPosition: Position) {
            let valueStart = position
            let startIndex = index
            mention(path, at: keyPosition)
            skipValue(at: path)
            if index == startIndex { return }
            var endIndex = index
            while endIndex > startIndex, [" ", "\t", "\r"].contains(scalars[endIndex - 1]) { endIndex -= 1 }
            var raw = String.UnicodeScalarView()
            raw.append(contentsOf: scalars[startIndex..<endIndex])
            if entries[path] == nil {
                entries[path] = Entry(key: keyPosition, value: valueStart, rawValue: String(raw))
            }
        }

        mutating func skipValue(at path: TOMLKeyPath) {
            guard let first = peek() else { return }
            if first == "[" || first == "{" {
                guard depth < Self.maximumDepth else { return }
                depth += 1
            }
            defer { if first == "[" || first == "{" { depth -= 1 } }
            switch first {
            case "\"", "'":
                skipString(quote: first)
            case "[":
                var element = 0
                skipElements(closedBy: "]") { scanner in
                    scanner.scanValue(at: path.appending(index: element), keyPosition: scanner.position)
                    element += 1
                }
            case "{":
                skipElements(closedBy: "}") { scanner in
                    let keyStart = scanner.position
                    guard let keys = scanner.scanKey(), !keys.isEmpty else { return }
                    scanner.skipSpaces()
                    guard scanner.peek() == "=" else { return }
                    scanner.advance()
                    scanner.skipSpaces()
                    scanner.scanValue(at: path.appending(keys), keyPosition: keyStart)
                }
            default:
                // A number, boolean or date-time: up to whatever ends a value.
                while let scalar = peek(),
                      !(scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\n" || scalar == "#"
                          || scalar == "," || scalar == "]" || scalar == "}") {
                    advance()
                }
            }
        }

        /// Moves past an array or inline table from its opening bracket to `closer`, calling
        /// `element` at the start of each element; commas, comments and line breaks between
        /// elements are skipped. An element that consumes nothing is stepped over, so malformed
        /// text can never stall the scan.
        mutating func skipElements(closedBy closer: Unicode.Scalar, _ element: (inout Self) -> Void) {
            advance()
            while peek() != nil {
                skipTrivia()
                guard let next = peek() else { return }
                if next == closer {
                    advance()
                    return
                }
                if next == "," {
                    advance()
                    continue
                }
                let before = index
                element(&self)
                if index == before { advance() }
            }
        }

        /// Moves past a basic, literal or multi-line string starting at the cursor.
        mutating func skipString(quote: Unicode.Scalar) {
            let escapes = quote == "\""
            if peek(1) == quote && peek(2) == quote {
                advance(3)
                while let scalar = peek() {
                    if escapes && scalar == "\\" {
                        advance(2)
                    } else if scalar == quote && peek(1) == quote && peek(2) == quote {
                        advance(3)
                        // Up to two more quotes belong to the content: `"""a "quote"""""`.
                        var extra = 0
                        while extra < 2, peek() == quote {
                            advance()
                            extra += 1
                        }
                        return
                    } else {
                        advance()
                    }
                }
                return
            }
            advance()
            while let scalar = peek(), scalar != "\n" {
                if escapes && scalar == "\\" {
                    advance(2)
                } else if scalar == quote {
                    advance()
                    return
                } else {
                    advance()
                }
            }
        }
    }
}
