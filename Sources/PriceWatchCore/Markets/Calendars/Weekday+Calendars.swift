// The weekday helpers the trading calendars need (the type itself belongs to the scheduler).

extension Weekday {
    /// 0 for Monday ... 6 for Sunday.
    var index: Int { rawValue - 1 }

    /// Saturday or Sunday.
    public var isWeekend: Bool { self == .saturday || self == .sunday }

    /// The day from its three-letter (`mon`) or full (`monday`) name, any case.
    public init?(name: String) {
        let lowered = name.lowercased()
        guard let day = Weekday.allCases.first(where: { $0.name == lowered || $0.fullName == lowered }) else { return nil }
        self = day
    }
}
