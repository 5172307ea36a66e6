import PriceWatchTOML

/// A value of a configuration file, as `TOMLParser` reads it: tables and arrays carry the
/// position of every key and element, so diagnostics need no second scan of the text.
typealias ConfigValue = TOMLValue

extension TOMLValue {
    /// The kind of value, as messages name it: `found a string`.
    var kindDescription: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a floating-point number"
        case .boolean: "a boolean"
        case .date: "a date"
        case .time: "a time"
        case .dateTime(let value): value.offsetMinutes == nil ? "a local date-time" : "a date-time"
        case .array(let array): array.count == 0 ? "an empty array" : "an array"
        case .table: "a table"
        }
    }
}
