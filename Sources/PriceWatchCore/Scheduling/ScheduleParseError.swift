/// Why a schedule could not be read, with the column (1-based, in characters) where the
/// problem starts: `column 7: expected a time HH:MM (00:00 to 23:59), found '25:00'`.
public struct ScheduleParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based character position in the schedule text; one past the end when something is
    /// missing at the end.
    public let column: Int
    /// What was expected and what was found.
    public let message: String

    public init(column: Int, message: String) {
        self.column = column
        self.message = message
    }

    public var description: String { "column \(column): \(message)" }
}
