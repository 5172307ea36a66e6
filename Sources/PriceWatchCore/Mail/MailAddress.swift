/// A validated mail address as configured: `alerts@example.com` or
/// `Price Watch <alerts@example.com>`.
///
/// Validation is strict on purpose, because addresses go into message headers and into SMTP
/// commands: the address is an RFC 5321 mailbox of ASCII dot-atoms (`local@domain`, the local
/// part at most 64 octets, the whole at most 254, domain labels of letters, digits and
/// hyphens); the optional display name is any text without control characters. Nothing that
/// parses here can hold a CR, an LF or a NUL. Quoted local parts, domain literals and
/// internationalised (SMTPUTF8) addresses are refused.
public struct MailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The bare address, as used in the SMTP envelope: `alerts@example.com`.
    public let address: String
    /// The display name, when one was written (without the quotes).
    public let displayName: String?

    /// Why a text is not an acceptable address; the message says what was expected and found.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    public init(parsing text: String) throws(ParseError) {
        if MailText.hasControlCharacter(text) {
            throw ParseError(description: "expected a mail address without control characters (CR, LF, NUL, ...), found \(MailText.quoted(text))")
        }
        let trimmed = Self.trimmed(Substring(text))
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
            var name = Self.trimmed(trimmed[..<open])
            if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
                name = String(name.dropFirst().dropLast())
            }
            if name.contains("\"") || name.contains("\\") || name.contains("<") || name.contains(">") {
                throw ParseError(description: "expected a display name without '\"', '\\', '<' or '>', found \(MailText.quoted(name))")
            }
            try Self.validate(address: String(inner), in: text)
            self.address = String(inner)
            self.displayName = name.isEmpty ? nil : name
        } else {
            try Self.validate(address: trimmed, in: text)
            self.address = trimmed
            self.displayName = nil
        }
    }

    /// `Price Watch <alerts@example.com>` or `alerts@example.com`, as configured.
    public var description: String {
        displayName.map { "\($0) <\(address)>" } ?? address
    }

    // MARK: - Validation

    private static let atextSymbols = Set("!#$%&'*+-/=?^_`{|}~".utf8)

    /// Whether `byte` is an RFC 5322 `atext` character.
    public static func isAtext(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || atextSymbols.contains(byte)
    }

    /// Whether `text` is an RFC 5322 `dot-atom-text`: atext runs separated by single dots.
    public static func isDotAtom(_ text: some StringProtocol) -> Bool {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return !text.isEmpty && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(isAtext) }
    }

    private static func validate(address: String, in text: String) throws(ParseError) {
        func fail(_ problem: String) -> ParseError {
            ParseError(description: "expected a mail address such as alerts@example.com, found \(MailText.quoted(text)) (\(problem))")
        }
        guard !address.isEmpty else { throw fail("no address") }
        guard address.utf8.allSatisfy({ $0 < 0x80 }) else { throw fail("non-ASCII addresses are not supported") }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw fail(parts.count < 2 ? "no '@'" : "more than one '@'") }
        let local = parts[0], domain = parts[1]
        guard isDotAtom(local) else { throw fail("the part before '@' must be letters, digits, dots and !#$%&'*+-/=?^_`{|}~, without a leading, trailing or double dot") }
        guard local.utf8.count <= 64 else { throw fail("the part before '@' is longer than 64 characters") }
        guard address.utf8.count <= 254 else { throw fail("longer than 254 characters") }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        let validLabels = labels.allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && label.first != "-" && label.last != "-"
                && label.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == UInt8(ascii: "-") }
        }
        guard validLabels else { throw fail("the domain must be dot-separated labels of letters, digits and '-'") }
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
