import TOMLKit

/// A parsed TOML value, copied out of TOMLKit's tree into plain Swift values.
///
/// TOMLKit's nodes are classes over C++ storage; copying them once, right after parsing,
/// keeps the readers simple (`switch` over values) and free of TOMLKit's types.
enum ConfigValue: Sendable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    /// A local date (`2027-06-30`).
    case date(year: Int, month: Int, day: Int)
    /// A local time (`07:32:00`).
    case time
    /// A date-time; `offsetMinutes` is `nil` for a local date-time (no `Z`, no offset).
    case dateTime(DateTime)
    case array([ConfigValue])
    case table([String: ConfigValue])

    /// The fields of a TOML date-time.
    struct DateTime: Sendable {
        var year: Int
        var month: Int
        var day: Int
        var hour: Int
        var minute: Int
        var second: Int
        var nanosecond: Int
        var offsetMinutes: Int?
    }

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
        case .array(let elements): elements.isEmpty ? "an empty array" : "an array"
        case .table: "a table"
        }
    }

    var table: [String: ConfigValue]? {
        if case .table(let table) = self { return table }
        return nil
    }

    /// A TOML syntax error, as TOMLKit reports it.
    struct SyntaxError: Error, Sendable {
        let message: String
        let line: Int?
        let column: Int?
    }

    /// Parses a TOML document with TOMLKit.
    ///
    /// - Returns: the root table, or the syntax error with its position
    ///   (`TOMLParseError.source.begin`).
    static func parse(_ text: String) -> Result<[String: ConfigValue], SyntaxError> {
        do {
            let table = try TOMLTable(string: text)
            return .success(convert(table))
        } catch let error as TOMLParseError {
            let begin = error.source.begin
            return .failure(SyntaxError(message: error.description,
                                        line: begin.line > 0 ? begin.line : nil,
                                        column: begin.column > 0 ? begin.column : nil))
        } catch {
            // TOMLTable(string:) throws nothing else; keep a position-less error just in case.
            return .failure(SyntaxError(message: "\(error)", line: nil, column: nil))
        }
    }

    private static func convert(_ table: TOMLTable) -> [String: ConfigValue] {
        var result: [String: ConfigValue] = [:]
        for (key, value) in zip(table.keys, table.values) {
            if let converted = convert(value) { result[key] = converted }
        }
        return result
    }

    private static func convert(_ value: any TOMLValueConvertible) -> ConfigValue? {
        switch value.type {
        case .string: return value.string.map(ConfigValue.string)
        case .int: return value.int.map(ConfigValue.integer)
        case .double: return value.double.map(ConfigValue.float)
        case .bool: return value.bool.map(ConfigValue.boolean)
        case .date:
            guard let date = value.date else { return nil }
            return .date(year: date.year, month: date.month, day: date.day)
        case .time: return .time
        case .dateTime:
            guard let dateTime = value.dateTime else { return nil }
            return .dateTime(DateTime(year: dateTime.date.year, month: dateTime.date.month, day: dateTime.date.day,
                                      hour: dateTime.time.hour, minute: dateTime.time.minute,
                                      second: dateTime.time.second, nanosecond: dateTime.time.nanoSecond,
                                      offsetMinutes: dateTime.offset?.offset))
        case .array:
            guard let array = value.array else { return nil }
            return .array(array.compactMap { convert($0) })
        case .table:
            return value.table.map { .table(convert($0)) }
        }
    }
}
