/// One value of a TOML document.
///
/// Tables and arrays are references to `TOMLTable` and `TOMLArray`, which carry the
/// positions of their keys and elements; the document is immutable once `TOMLParser`
/// returns it.
public enum TOMLValue: @unchecked Sendable {
    case string(String)
    /// A 64-bit integer (TOML integers are 64-bit; `Int` is 64-bit on every supported platform).
    case integer(Int)
    case float(TOMLFloat)
    case boolean(Bool)
    /// An offset or local date-time.
    case dateTime(TOMLDateTime)
    /// A local date.
    case date(TOMLDate)
    /// A local time.
    case time(TOMLTime)
    case array(TOMLArray)
    case table(TOMLTable)

    /// The table, when this is one.
    public var table: TOMLTable? {
        if case .table(let table) = self { return table }
        return nil
    }
}

/// A TOML float, with its literal as written (so exact decimals can be read from `3.135`
/// rather than from the nearest `Double`).
public struct TOMLFloat: Sendable, Hashable {
    public let value: Double
    /// The literal as written, underscores included: `3.135`, `1_000.5`, `-inf`, `6.02e23`.
    public let literal: String

    public init(value: Double, literal: String) {
        self.value = value
        self.literal = literal
    }
}
