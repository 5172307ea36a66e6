/// Why a document is not valid TOML (or exceeds a `TOMLLimits` bound), and where.
///
/// The message starts lowercase and says what was expected and what was found; it never
/// repeats the position, which callers print in front of it (`PATH:LINE:COL: error: ...`).
public struct TOMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: Sendable, Hashable {
        /// The text breaks the TOML 1.0 grammar or its rules about tables and keys.
        case syntax
        /// The bytes are not UTF-8.
        case encoding
        /// The document exceeds one of the `TOMLLimits`.
        case limit
    }

    public let kind: Kind
    public let message: String
    public let position: TOMLPosition

    public init(_ kind: Kind, _ message: String, at position: TOMLPosition) {
        self.kind = kind
        self.message = message
        self.position = position
    }

    /// `LINE:COLUMN: MESSAGE`.
    public var description: String { "\(position): \(message)" }
}
