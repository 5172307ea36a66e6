/// Where something is written in a TOML document: a line and a column, both starting at 1.
///
/// Columns count Unicode scalars, not bytes, so `é` is one column; a tab is one column.
public struct TOMLPosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: TOMLPosition, rhs: TOMLPosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// `LINE:COLUMN`.
    public var description: String { "\(line):\(column)" }
}
