/// A TOML array: an inline `[1, 2]` or the elements of an array of tables (`[[rule]]`), with
/// the position of every element.
///
/// A reference type so the parser can append `[[rule]]` elements in place; immutable once
/// `TOMLParser` returns the document (hence `@unchecked Sendable`). Exempt from the runtime's
/// exclusivity checks for the reason ``TOMLTable`` gives.
public final class TOMLArray: @unchecked Sendable {
    /// The elements in file order.
    @exclusivity(unchecked) public private(set) var elements: [TOMLValue] = []
    /// Where each element starts: its first character, or its `[[...]]` header.
    @exclusivity(unchecked) public private(set) var positions: [TOMLPosition] = []
    /// Whether this is an array of tables made by `[[...]]` headers (which later headers may
    /// extend), rather than an inline array (which nothing may extend).
    public let isArrayOfTables: Bool

    init(isArrayOfTables: Bool) {
        self.isArrayOfTables = isArrayOfTables
    }

    public var count: Int { elements.count }

    func append(_ value: TOMLValue, at position: TOMLPosition) {
        elements.append(value)
        positions.append(position)
    }
}
