/// A TOML 1.0 parser that keeps the position of every key and value.
///
/// One pass over the UTF-8 bytes, with no backtracking: the time is linear in the size of
/// the document, and `TOMLLimits` bound the document's size, the nesting of arrays and
/// inline tables (so recursion never exhausts the stack) and the length and number of key
/// parts. It checks everything TOML 1.0 requires: UTF-8, control characters, the value
/// grammar (integers in 64 bits, floats, the four date-time kinds with their ranges), and
/// which tables and keys may be defined or extended where.
///
/// Errors say what was expected and what was found, at the line and column where it was
/// found. On an error, `TOMLParseResult.partialRoot` holds everything parsed before it. After
/// a syntax error the parser resynchronises at the next line that starts with a table header
/// (`[x]` or `[[x]]`) and goes on looking for errors, so that one check reports several bad
/// lines (`TOMLParseResult.laterErrors`); what it reads there is not part of the result.
public enum TOMLParser {
    /// Parses `text`.
    public static func parse(_ text: String, limits: TOMLLimits = .default) -> TOMLParseResult {
        parse(bytes: Array(text.utf8), limits: limits)
    }

    /// Parses a document from its bytes, which must be UTF-8 (a leading byte order mark is
    /// skipped).
    public static func parse(bytes: [UInt8], limits: TOMLLimits = .default) -> TOMLParseResult {
        let root = TOMLTable(origin: .root)
        var reader = TOMLByteReader(bytes: bytes, limits: limits)
        do {
            try reader.parseDocument(into: root)
            return TOMLParseResult(partialRoot: root, error: nil)
        } catch {
            return TOMLParseResult(partialRoot: root, error: error, laterErrors: reader.laterErrors(after: error))
        }
    }

    /// Parses `text`, throwing its first error.
    public static func document(_ text: String, limits: TOMLLimits = .default) throws(TOMLError) -> TOMLTable {
        let result = parse(text, limits: limits)
        if let error = result.error { throw error }
        return result.partialRoot
    }
}

/// What `TOMLParser` made of a document: the root table, or the first error and what was
/// parsed before it.
public struct TOMLParseResult: Sendable {
    /// Everything parsed up to the first error (the whole document when there is none).
    public let partialRoot: TOMLTable
    public let error: TOMLError?
    /// The syntax errors after the first, each found by resynchronising at the next table
    /// header after the previous one, in document order; empty without an error or after an
    /// encoding or limit error. Best effort: a header inside a multi-line string or array
    /// after an error is taken as a header, and a table the broken part defines is not known.
    public let laterErrors: [TOMLError]

    init(partialRoot: TOMLTable, error: TOMLError?, laterErrors: [TOMLError] = []) {
        self.partialRoot = partialRoot
        self.error = error
        self.laterErrors = laterErrors
    }

    /// The first error and the later ones, in document order.
    public var errors: [TOMLError] { error.map { [$0] + laterErrors } ?? [] }

    /// The root table of a valid document; `nil` when there is an error.
    public var root: TOMLTable? { error == nil ? partialRoot : nil }
}
