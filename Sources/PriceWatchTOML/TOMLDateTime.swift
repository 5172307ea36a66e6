/// A TOML local date: `1979-05-27`.
public struct TOMLDate: Sendable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }
}

/// A TOML local time: `07:32:00.999999`.
public struct TOMLTime: Sendable, Hashable {
    public var hour: Int
    public var minute: Int
    /// 0 through 60 (a leap second).
    public var second: Int
    /// The fraction of the second; digits beyond the ninth are dropped.
    public var nanosecond: Int

    public init(hour: Int, minute: Int, second: Int, nanosecond: Int = 0) {
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanosecond = nanosecond
    }
}

/// A TOML date-time: with an offset (`1979-05-27T07:32:00Z`, `...-07:00`), or local
/// (`1979-05-27T07:32:00`) when `offsetMinutes` is `nil`.
public struct TOMLDateTime: Sendable, Hashable {
    public var date: TOMLDate
    public var time: TOMLTime
    /// Minutes east of UTC (`Z` is 0); `nil` for a local date-time.
    public var offsetMinutes: Int?

    public init(date: TOMLDate, time: TOMLTime, offsetMinutes: Int?) {
        self.date = date
        self.time = time
        self.offsetMinutes = offsetMinutes
    }
}
