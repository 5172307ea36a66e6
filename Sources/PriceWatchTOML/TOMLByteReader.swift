/// The cursor behind `TOMLParser`: the document's structure (lines, keys, headers, arrays,
/// inline tables) and where each thing starts. Strings, numbers and date-times are read by
/// the extensions in `TOMLByteReader+Strings.swift` and `TOMLByteReader+Scalars.swift`.
///
/// Every loop consumes at least one byte per iteration or ends, and recursion is bounded by
/// `TOMLLimits.maximumNestingDepth`, so no input can make it run long or deep.
struct TOMLByteReader {
    let bytes: [UInt8]
    let limits: TOMLLimits
    var offset = 0
    var line = 1
    /// The offset where the current line starts.
    var lineStart = 0
    /// A recent (offset, column) on the current line, so that columns of several things on
    /// one long line are counted once, not from the line start each time.
    private var columnMark = (offset: 0, column: 1)

    init(bytes: [UInt8], limits: TOMLLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    // MARK: - Bytes and positions

    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let tab: UInt8 = 0x09
    static let space: UInt8 = 0x20

    var atEnd: Bool { offset >= bytes.count }

    func peek(_ ahead: Int = 0) -> UInt8? {
        let target = offset + ahead
        return target < bytes.count ? bytes[target] : nil
    }

    func peekIs(_ ascii: Unicode.Scalar, _ ahead: Int = 0) -> Bool {
        peek(ahead) == UInt8(ascii: ascii)
    }

    /// The position of the byte at `offset`, which must be on the current line.
    mutating func position() -> TOMLPosition {
        if columnMark.offset < lineStart || columnMark.offset > offset {
            columnMark = (lineStart, 1)
        }
        var column = columnMark.column
        var index = columnMark.offset
        while index < offset {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        columnMark = (offset, column)
        return TOMLPosition(line: line, column: column)
    }

    func syntaxError(_ message: String, at position: TOMLPosition) -> TOMLError {
        TOMLError(.syntax, message, at: position)
    }

    mutating func syntaxError(_ message: String) -> TOMLError {
        syntaxError(message, at: position())
    }

    /// The thing at the cursor, for messages: `'='`, `the end of the line`, `the end of the file`.
    func found() -> String {
        guard let byte = peek() else { return "the end of the file" }
        switch byte {
        case Self.lineFeed, Self.carriageReturn: return "the end of the line"
        case Self.tab: return "a tab"
        case UInt8(ascii: "'"): return "\"'\""
        case 0..<0x20, 0x7F: return "the control character \(Self.codePoint(UInt32(byte)))"
        case 0x80...:
            guard let length = utf8Length(at: offset) else { return "a byte that is not UTF-8" }
            return "'" + String(decoding: bytes[offset..<offset + length], as: UTF8.self) + "'"
        default: return "'" + String(UnicodeScalar(byte)) + "'"
        }
    }

    /// `U+0007`.
    static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The length of the valid UTF-8 sequence at `index`, or `nil` when the bytes there are
    /// not UTF-8 (overlong forms and surrogates included).
    func utf8Length(at index: Int) -> Int? {
        let lead = bytes[index]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0..<0x80: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        let second = bytes[index + 1]
        guard second >= low && second <= high else { return nil }
        for continuation in bytes[(index + 2)..<(index + length)] where continuation & 0xC0 != 0x80 { return nil }
        return length
    }

    /// Moves past the non-ASCII character at the cursor, or fails when it is not UTF-8.
    mutating func skipNonASCII() throws(TOMLError) -> Int {
        guard let length = utf8Length(at: offset) else {
            throw TOMLError(.encoding, "the text is not UTF-8 (invalid byte 0x\(String(bytes[offset], radix: 16, uppercase: true)))",
                            at: position())
        }
        offset += length
        return length
    }

    // MARK: - Whitespace, comments, line ends

    mutating func skipWhitespace() {
        while let byte = peek(), byte == Self.space || byte == Self.tab { offset += 1 }
    }

    /// A line feed or CRLF at the cursor.
    mutating func newline() throws(TOMLError) {
        if peek() == Self.carriageReturn {
            guard peek(1) == Self.lineFeed else {
                throw syntaxError("a carriage return must be followed by a line feed (CRLF)")
            }
            offset += 1
        }
        offset += 1
        line += 1
        lineStart = offset
    }

    /// A `#` comment up to, not including, the line end.
    mutating func comment() throws(TOMLError) {
        offset += 1
        while let byte = peek(), byte != Self.lineFeed {
            if byte == Self.carriageReturn {
                if peek(1) == Self.lineFeed { return }
                throw syntaxError("a carriage return must be followed by a line feed (CRLF)")
            }
            if (byte < 0x20 && byte != Self.tab) || byte == 0x7F {
                throw syntaxError("the control character \(Self.codePoint(UInt32(byte))) is not allowed in a comment")
            }
            if byte >= 0x80 { _ = try skipNonASCII() } else { offset += 1 }
        }
    }

    /// Spaces, an optional comment and the line end (or the end of the file) after a
    /// key/value pair or a header.
    mutating func endOfLine(after what: String) throws(TOMLError) {
        skipWhitespace()
        if peekIs("#") { try comment() }
        guard let byte = peek() else { return }
        guard byte == Self.lineFeed || byte == Self.carriageReturn else {
            throw syntaxError("expected the end of the line after \(what), found \(found())")
        }
        try newline()
    }

    /// Whitespace, line ends and comments, as allowed between array elements.
    mutating func skipBlankSpace() throws(TOMLError) {
        while let byte = peek() {
            switch byte {
            case Self.space, Self.tab: offset += 1
            case Self.lineFeed, Self.carriageReturn: try newline()
            case UInt8(ascii: "#"): try comment()
            default: return
            }
        }
    }

    // MARK: - Document

    mutating func parseDocument(into root: TOMLTable) throws(TOMLError) {
        if bytes.count > limits.maximumDocumentBytes {
            throw TOMLError(.limit, "the document is \(bytes.count) bytes; the limit is \(limits.maximumDocumentBytes) bytes",
                            at: TOMLPosition(line: 1, column: 1))
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            offset = 3
            lineStart = 3
        }
        try validateUTF8()
        try parseLines(into: root)
    }

    /// Lines from the cursor to the end of the document: key/value pairs into `root` until a
    /// table header says where the next ones go.
    mutating func parseLines(into root: TOMLTable) throws(TOMLError) {
        var current = root
        while let byte = peek() {
            switch byte {
            case Self.space, Self.tab:
                offset += 1
            case Self.lineFeed, Self.carriageReturn:
                try newline()
            case UInt8(ascii: "#"):
                try comment()
            case UInt8(ascii: "["):
                current = try header(root: root)
                try endOfLine(after: "the table header")
            default:
                try keyValue(into: current, depth: 0)
                try endOfLine(after: "the value")
            }
        }
    }

    /// Checks the whole document is UTF-8 before reading it, so that a stray byte is reported
    /// as what it is wherever it sits. Leaves the cursor where it was.
    mutating func validateUTF8() throws(TOMLError) {
        var index = offset
        var lineNumber = line, start = lineStart
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte == Self.lineFeed {
                    lineNumber += 1
                    start = index + 1
                }
                index += 1
                continue
            }
            guard let length = utf8Length(at: index) else {
                let (savedOffset, savedLine, savedStart) = (offset, line, lineStart)
                (offset, line, lineStart) = (index, lineNumber, start)
                let error = TOMLError(.encoding, "the text is not UTF-8 (invalid byte 0x\(String(byte, radix: 16, uppercase: true)))",
                                      at: position())
                (offset, line, lineStart) = (savedOffset, savedLine, savedStart)
                throw error
            }
            index += length
        }
    }

    // MARK: - Keys

    /// One part of a (dotted) key.
    struct KeyPart {
        let name: String
        let position: TOMLPosition
    }

    /// A simple or dotted key, with spaces allowed around the dots.
    mutating func key() throws(TOMLError) -> [KeyPart] {
        var parts: [KeyPart] = []
        while true {
            let start = position()
            let name = try simpleKey()
            if name.utf8.count > limits.maximumKeyBytes {
                throw TOMLError(.limit, "a key is \(name.utf8.count) bytes long; the limit is \(limits.maximumKeyBytes) bytes",
                                at: start)
            }
            parts.append(KeyPart(name: name, position: start))
            if parts.count > limits.maximumKeyParts {
                throw TOMLError(.limit, "a dotted key has more than \(limits.maximumKeyParts) parts", at: start)
            }
            skipWhitespace()
            guard peekIs(".") else { return parts }
            offset += 1
            skipWhitespace()
        }
    }

    mutating func simpleKey() throws(TOMLError) -> String {
        guard let byte = peek() else { throw syntaxError("expected a key, found the end of the file") }
        if byte == UInt8(ascii: "\"") {
            if peekIs("\"", 1) && peekIs("\"", 2) { throw syntaxError("a key cannot be a multi-line string") }
            return try basicString()
        }
        if byte == UInt8(ascii: "'") {
            if peekIs("'", 1) && peekIs("'", 2) { throw syntaxError("a key cannot be a multi-line string") }
            return try literalString()
        }
        let start = offset
        while let next = peek(), Self.isBareKeyByte(next) { offset += 1 }
        guard offset > start else {
            throw syntaxError("expected a key (letters, digits, '_', '-', or a quoted string), found \(found())")
        }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    static func isBareKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }

    /// `a.b."c d"` for messages.
    static func describe(_ parts: some Collection<KeyPart>) -> String {
        parts.map { part in
            let isBare = !part.name.isEmpty && part.name.utf8.allSatisfy(isBareKeyByte)
            return isBare ? part.name : "\"" + part.name + "\""
        }.joined(separator: ".")
    }

    // MARK: - Key/value pairs

    /// `key = value`, added to `table` (dotted keys make or extend sub-tables).
    mutating func keyValue(into table: TOMLTable, depth: Int) throws(TOMLError) {
        let parts = try key()
        guard peekIs("=") else {
            throw syntaxError("expected '=' after the key \(Self.describe(parts)), found \(found())")
        }
        offset += 1
        skipWhitespace()
        let value = try value(depth: depth)
        try insert(value, at: parts, into: table)
    }

    mutating func insert(_ value: TOMLValue, at parts: [KeyPart], into table: TOMLTable) throws(TOMLError) {
        guard let first = parts.first, let last = parts.last else { return }
        var current = table
        for (index, part) in parts.dropLast().enumerated() {
            if let existing = current.entry(part.name) {
                guard case .table(let sub) = existing.value, sub.origin == .dotted else {
                    let name = Self.describe(parts[...index])
                    throw syntaxError(Self.cannotExtend(name, existing, with: "a dotted key"), at: part.position)
                }
                current = sub
            } else {
                let sub = TOMLTable(origin: .dotted)
                current.append(part.name, at: first.position, .table(sub))
                current = sub
            }
        }
        if let existing = current.entry(last.name) {
            throw syntaxError("duplicate key \(Self.describe(parts)) (first written at line \(existing.keyPosition.line))",
                              at: last.position)
        }
        current.append(last.name, at: first.position, value)
    }

    /// Why `name` (holding `entry`) cannot be added to by `what`.
    static func cannotExtend(_ name: String, _ entry: TOMLTable.Entry, with what: String) -> String {
        let line = entry.keyPosition.line
        switch entry.value {
        case .table(let table):
            switch table.origin {
            case .inline:
                return "cannot add to the inline table \(name) (line \(line)) with \(what); an inline table is complete as written"
            case .header, .implicit, .root:
                return "cannot add to the table [\(name)] (line \(table.headerPosition?.line ?? line)) with \(what)"
            case .dotted:
                return "cannot define the table \(name) (made by dotted keys on line \(line)) with \(what)"
            }
        case .array(let array) where array.isArrayOfTables:
            return "\(name) is an array of tables ([[\(name)]], line \(line)); it cannot be extended with \(what)"
        default:
            return "\(name) is already a value (line \(line)), not a table"
        }
    }

    // MARK: - Headers

    /// `[a.b]` or `[[a.b]]`; returns the table that the following key/value pairs go into.
    mutating func header(root: TOMLTable) throws(TOMLError) -> TOMLTable {
        let start = position()
        offset += 1
        let isArray = peekIs("[")
        if isArray { offset += 1 }
        skipWhitespace()
        let parts = try key()
        let closing = isArray ? "']]'" : "']'"
        guard peekIs("]"), !isArray || peekIs("]", 1) else {
            throw syntaxError("expected \(closing) to close the table header, found \(found())")
        }
        offset += isArray ? 2 : 1

        var current = root
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            guard let existing = current.entry(part.name) else {
                if isLast && isArray {
                    let array = TOMLArray(isArrayOfTables: true)
                    let table = TOMLTable(origin: .header, headerPosition: start)
                    array.append(.table(table), at: start)
                    current.append(part.name, at: start, .array(array))
                    return table
                }
                let table = TOMLTable(origin: isLast ? .header : .implicit, headerPosition: isLast ? start : nil)
                current.append(part.name, at: start, .table(table))
                current = table
                continue
            }
            // Named only for an error: describing the path for every header was a twentieth of
            // parsing a large rule file.
            let name = { Self.describe(parts[...index]) }
            switch existing.value {
            case .table(let table) where !isLast:
                guard table.origin != .inline else {
                    throw syntaxError(Self.cannotExtend(name(), existing, with: "a table header"), at: part.position)
                }
                current = table
            case .table(let table) where !isArray && table.origin == .implicit:
                table.origin = .header
                table.headerPosition = start
                return table
            case .table(let table) where !isArray && table.origin == .header:
                throw syntaxError("the table [\(name())] is defined twice (first at line \(table.headerPosition?.line ?? existing.keyPosition.line))",
                                  at: start)
            case .array(let array) where array.isArrayOfTables:
                if isLast {
                    guard isArray else {
                        throw syntaxError("[\(name())] is already an array of tables ([[\(name())]], line \(existing.keyPosition.line))",
                                          at: start)
                    }
                    let table = TOMLTable(origin: .header, headerPosition: start)
                    array.append(.table(table), at: start)
                    return table
                }
                guard case .table(let element)? = array.elements.last else {
                    throw syntaxError(Self.cannotExtend(name(), existing, with: "a table header"), at: part.position)
                }
                current = element
            default:
                throw syntaxError(Self.cannotExtend(name(), existing, with: "a table header"), at: isLast ? start : part.position)
            }
        }
        return current
    }

    // MARK: - Values

    mutating func value(depth: Int) throws(TOMLError) -> TOMLValue {
        guard let byte = peek() else { throw syntaxError("expected a value, found the end of the file") }
        switch byte {
        case UInt8(ascii: "\""):
            if peekIs("\"", 1) && peekIs("\"", 2) { return .string(try multiLineBasicString()) }
            return .string(try basicString())
        case UInt8(ascii: "'"):
            if peekIs("'", 1) && peekIs("'", 2) { return .string(try multiLineLiteralString()) }
            return .string(try literalString())
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            return try boolean()
        case UInt8(ascii: "["):
            return .array(try array(depth: depth + 1))
        case UInt8(ascii: "{"):
            return .table(try inlineTable(depth: depth + 1))
        case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "i"), UInt8(ascii: "n"):
            return try numberOrDateTime()
        case Self.lineFeed, Self.carriageReturn:
            throw syntaxError("expected a value, found the end of the line")
        default:
            throw syntaxError("error while parsing value: could not determine value type")
        }
    }

    mutating func boolean() throws(TOMLError) -> TOMLValue {
        for (word, value) in [("true", true), ("false", false)] {
            let utf8 = word.utf8
            if offset + utf8.count <= bytes.count, bytes[offset..<offset + utf8.count].elementsEqual(utf8),
               !(peek(utf8.count).map(Self.isBareKeyByte) ?? false) {
                offset += utf8.count
                return .boolean(value)
            }
        }
        throw syntaxError("error while parsing value: could not determine value type")
    }

    mutating func checkDepth(_ depth: Int) throws(TOMLError) {
        guard depth <= limits.maximumNestingDepth else {
            throw TOMLError(.limit, "arrays and inline tables are nested more than \(limits.maximumNestingDepth) deep",
                            at: position())
        }
    }

    /// `[ value, value, ]`, over several lines if need be.
    mutating func array(depth: Int) throws(TOMLError) -> TOMLArray {
        try checkDepth(depth)
        offset += 1
        let array = TOMLArray(isArrayOfTables: false)
        while true {
            try skipBlankSpace()
            if peekIs("]") {
                offset += 1
                return array
            }
            let start = position()
            array.append(try value(depth: depth), at: start)
            try skipBlankSpace()
            if peekIs(",") {
                offset += 1
                continue
            }
            if peekIs("]") {
                offset += 1
                return array
            }
            throw syntaxError("expected ',' or ']' after an array element, found \(found())")
        }
    }

    /// `{ key = value, ... }`, on one line, without a trailing comma.
    mutating func inlineTable(depth: Int) throws(TOMLError) -> TOMLTable {
        try checkDepth(depth)
        offset += 1
        let table = TOMLTable(origin: .inline)
        skipWhitespace()
        if peekIs("}") {
            offset += 1
            return table
        }
        while true {
            skipWhitespace()
            try keyValue(into: table, depth: depth)
            skipWhitespace()
            if peekIs(",") {
                offset += 1
                skipWhitespace()
                if peekIs("}") { throw syntaxError("an inline table cannot end with a comma") }
                continue
            }
            if peekIs("}") {
                offset += 1
                return table
            }
            if peek() == Self.lineFeed || peek() == Self.carriageReturn || peekIs("#") {
                throw syntaxError("expected ',' or '}' in the inline table, found \(found()); an inline table is written on one line")
            }
            throw syntaxError("expected ',' or '}' in the inline table, found \(found())")
        }
    }
}
