/// The quoted-printable body encoding of RFC 2045 6.7, for text parts: readable where the text
/// is ASCII, safe everywhere, with lines of at most 76 characters.
///
/// Line breaks of the input (CRLF, CR or LF) become CRLF; every other byte that is not
/// printable ASCII, `=`, and a space or tab before a line break are written as `=XX`; longer
/// lines are broken with soft line breaks (`=` CRLF) between encoded units.
enum QuotedPrintable {
    static let maximumLineLength = 76

    static func encode(_ text: String) -> String {
        var output = ""
        for line in lines(of: text) {
            output += encodeLine(line)
            output += "\r\n"
        }
        return output
    }

    /// The lines of `text`, split at CRLF, CR or LF; a final line break ends the last line
    /// rather than starting an empty one.
    static func lines(of text: String) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        var previousWasCR = false
        for byte in text.utf8 {
            if byte == 0x0A && previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = byte == 0x0D
            if byte == 0x0D || byte == 0x0A {
                lines.append(current)
                current = []
            } else {
                current.append(byte)
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    private static func encodeLine(_ line: [UInt8]) -> String {
        var output = ""
        var lineLength = 0
        for (index, byte) in line.enumerated() {
            let isLast = index == line.count - 1
            let literal = (0x21...0x7E).contains(byte) && byte != UInt8(ascii: "=")
                || ((byte == 0x20 || byte == 0x09) && !isLast)
            let unit = literal ? String(UnicodeScalar(byte)) : "=" + hex(byte)
            // Keep room for the soft break's "=" unless this unit ends the line.
            let room = isLast ? maximumLineLength : maximumLineLength - 1
            if lineLength + unit.utf8.count > room {
                output += "=\r\n"
                lineLength = 0
            }
            output += unit
            lineLength += unit.utf8.count
        }
        return output
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
