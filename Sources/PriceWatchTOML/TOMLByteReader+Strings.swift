/// The four kinds of TOML strings.
extension TOMLByteReader {
    private static let quote = UInt8(ascii: "\"")
    private static let apostrophe = UInt8(ascii: "'")
    private static let backslash = UInt8(ascii: "\\")

    private static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != tab) || byte == 0x7F
    }

    private mutating func controlCharacterError(_ byte: UInt8) -> TOMLError {
        let code = Self.codePoint(UInt32(byte))
        return syntaxError("the control character \(code) is not allowed in a string; write it as an escape (\\u\(code.dropFirst(2)))")
    }

    /// `"..."` on one line, with escapes. The cursor is on the opening quote.
    mutating func basicString() throws(TOMLError) -> String {
        let start = position()
        offset += 1
        let contentStart = offset
        var decoded: [UInt8]?
        while true {
            guard let byte = peek(), byte != Self.lineFeed, byte != Self.carriageReturn else {
                throw syntaxError("unterminated string: the closing '\"' is missing on this line "
                                  + "(a \"...\" string ends on the line it starts; use \"\"\"...\"\"\" for several lines)",
                                  at: start)
            }
            switch byte {
            case Self.quote:
                let text = decoded.map { String(decoding: $0, as: UTF8.self) }
                    ?? String(decoding: bytes[contentStart..<offset], as: UTF8.self)
                offset += 1
                return text
            case Self.backslash:
                if decoded == nil { decoded = Array(bytes[contentStart..<offset]) }
                try escape(into: &decoded!)
            case 0x80...:
                let from = offset
                _ = try skipNonASCII()
                decoded?.append(contentsOf: bytes[from..<offset])
            default:
                if Self.isControl(byte) { throw controlCharacterError(byte) }
                decoded?.append(byte)
                offset += 1
            }
        }
    }

    /// `'...'` on one line, without escapes. The cursor is on the opening apostrophe.
    mutating func literalString() throws(TOMLError) -> String {
        let start = position()
        offset += 1
        let contentStart = offset
        while true {
            guard let byte = peek(), byte != Self.lineFeed, byte != Self.carriageReturn else {
                throw syntaxError("unterminated string: the closing \"'\" is missing on this line "
                                  + "(a '...' string ends on the line it starts; use '''...''' for several lines)",
                                  at: start)
            }
            if byte == Self.apostrophe {
                let text = String(decoding: bytes[contentStart..<offset], as: UTF8.self)
                offset += 1
                return text
            }
            if byte >= 0x80 {
                _ = try skipNonASCII()
            } else {
                if Self.isControl(byte) { throw controlCharacterError(byte) }
                offset += 1
            }
        }
    }

    /// `"""..."""`, with escapes and line-ending backslashes.
    mutating func multiLineBasicString() throws(TOMLError) -> String {
        try multiLineString(delimiter: Self.quote)
    }

    /// `'''...'''`, without escapes.
    mutating func multiLineLiteralString() throws(TOMLError) -> String {
        try multiLineString(delimiter: Self.apostrophe)
    }

    private mutating func multiLineString(delimiter: UInt8) throws(TOMLError) -> String {
        let start = position()
        let escapes = delimiter == Self.quote
        offset += 3
        // A line end right after the opening delimiter is not part of the string.
        if peek() == Self.lineFeed || (peek() == Self.carriageReturn && peek(1) == Self.lineFeed) { try newline() }
        var text: [UInt8] = []
        while true {
            guard let byte = peek() else {
                let written = escapes ? "\"\"\"" : "'''"
                throw syntaxError("unterminated multi-line string: the closing \(written) is missing", at: start)
            }
            switch byte {
            case delimiter:
                var run = 0
                while peek(run) == delimiter { run += 1 }
                if run >= 3 {
                    guard run <= 5 else { throw syntaxError("too many quotes at the end of a multi-line string") }
                    text.append(contentsOf: repeatElement(delimiter, count: run - 3))
                    offset += run
                    return String(decoding: text, as: UTF8.self)
                }
                text.append(contentsOf: repeatElement(delimiter, count: run))
                offset += run
            case Self.backslash where escapes:
                if let next = peek(1), next == Self.space || next == Self.tab || next == Self.lineFeed || next == Self.carriageReturn {
                    try lineEndingBackslash()
                } else {
                    try escape(into: &text)
                }
            case Self.lineFeed, Self.carriageReturn:
                let from = offset
                try newline()
                text.append(contentsOf: bytes[from..<offset])
            case 0x80...:
                let from = offset
                _ = try skipNonASCII()
                text.append(contentsOf: bytes[from..<offset])
            default:
                if Self.isControl(byte) { throw controlCharacterError(byte) }
                text.append(byte)
                offset += 1
            }
        }
    }

    /// A backslash at the end of a line: it, the line end and all whitespace up to the next
    /// other character are dropped.
    private mutating func lineEndingBackslash() throws(TOMLError) {
        let start = position()
        offset += 1
        skipWhitespace()
        guard peek() == Self.lineFeed || peek() == Self.carriageReturn else {
            throw syntaxError("invalid escape: a '\\' followed by spaces must end the line", at: start)
        }
        while let byte = peek() {
            if byte == Self.space || byte == Self.tab {
                offset += 1
            } else if byte == Self.lineFeed || byte == Self.carriageReturn {
                try newline()
            } else {
                return
            }
        }
    }

    /// The escape at the cursor (on the backslash), appended as UTF-8.
    private mutating func escape(into text: inout [UInt8]) throws(TOMLError) {
        let start = position()
        offset += 1
        guard let byte = peek() else { throw syntaxError("unterminated string: it ends in an escape", at: start) }
        offset += 1
        switch byte {
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "r"): text.append(0x0D)
        case Self.quote: text.append(Self.quote)
        case Self.backslash: text.append(Self.backslash)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let width = byte == UInt8(ascii: "u") ? 4 : 8
            var value: UInt32 = 0
            for _ in 0..<width {
                guard let digit = peek(), let nibble = Self.hexValue(digit) else {
                    throw syntaxError("invalid escape: \\\(UnicodeScalar(byte)) needs \(width) hexadecimal digits", at: start)
                }
                value = value << 4 | UInt32(nibble)
                offset += 1
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw syntaxError("invalid escape: \(Self.codePoint(value)) is not a Unicode scalar value", at: start)
            }
            text.append(contentsOf: String(scalar).utf8)
        default:
            offset -= 1
            throw syntaxError("invalid escape '\\\(found().dropFirst().dropLast())' (escapes are \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)",
                              at: start)
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
