/// A sink's `rate_limit`: at most ``attempts`` attempts (single deliveries or groups) in any
/// window of ``windowMilliseconds``, as a service's published limit asks (Telegram: about 20
/// messages a minute to one group). Written `"20/min"`, `"1/s"` or `"100/h"`; `"off"` lifts a
/// sink type's default.
///
/// The outbox keeps it (``RateLimitStage``): what the window has no room for stays pending
/// and goes out when the window moves on, so no adapter sleeps.
public struct DeliveryRateLimit: Sendable, Hashable, CustomStringConvertible {
    /// The most attempts in one window; at least 1.
    public let attempts: Int
    /// The window's length in milliseconds; at least 1 000.
    public let windowMilliseconds: Int64

    public init?(attempts: Int, windowMilliseconds: Int64) {
        guard attempts >= 1, windowMilliseconds >= 1_000 else { return nil }
        self.attempts = attempts
        self.windowMilliseconds = windowMilliseconds
    }

    /// The units a rate may be written in, with their length in milliseconds.
    static let units: [(names: [String], milliseconds: Int64)] = [
        (["s", "sec", "second"], 1_000),
        (["min", "minute"], 60_000),
        (["h", "hour"], 3_600_000),
        (["d", "day"], 86_400_000),
    ]

    /// Parses `"N/UNIT"` (`s`, `min`, `h` or `d`, with an optional count before the unit:
    /// `"10/5min"`); nil when the text is not one.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let attempts = Int(parts[0]), attempts >= 1 else { return nil }
        let span = parts[1]
        let digits = span.prefix(while: \.isASCIIDigitCharacter)
        let unitName = span.dropFirst(digits.count)
        let multiplier = digits.isEmpty ? 1 : Int64(digits) ?? 0
        guard multiplier >= 1, multiplier <= 10_000,
              let unit = Self.units.first(where: { $0.names.contains(String(unitName)) }) else { return nil }
        self.init(attempts: attempts, windowMilliseconds: multiplier * unit.milliseconds)
    }

    /// How it is written: `20/min`, `1/s`, `10/5min`.
    public var description: String {
        for unit in Self.units.reversed() where windowMilliseconds % unit.milliseconds == 0 {
            let count = windowMilliseconds / unit.milliseconds
            return "\(attempts)/\(count == 1 ? "" : "\(count)")\(unit.names[0])"
        }
        return "\(attempts)/\(windowMilliseconds)ms"
    }

    /// How many more attempts the window ending at `now` has room for, given when the
    /// recent attempts started.
    public func room(now: Timestamp, recentStarts: [Timestamp]) -> Int {
        max(attempts - counted(now: now, recentStarts).count, 0)
    }

    /// When the window has room again once `starting` more attempts start at `now`; nil when
    /// it still has room then.
    public func nextOpening(now: Timestamp, recentStarts: [Timestamp], starting: Int = 0) -> Timestamp? {
        let starts = counted(now: now, recentStarts) + Array(repeating: now, count: max(starting, 0))
        guard starts.count >= attempts else { return nil }
        // Room reopens when the oldest of the last `attempts` starts leaves the window.
        let oldest = starts[starts.count - attempts]
        return Timestamp(milliseconds: oldest.milliseconds + windowMilliseconds)
    }

    /// The starts still inside the window that ends at `now`, oldest first.
    private func counted(now: Timestamp, _ recentStarts: [Timestamp]) -> [Timestamp] {
        let windowStart = now.milliseconds - windowMilliseconds
        return recentStarts.filter { $0.milliseconds > windowStart && $0 <= now }.sorted()
    }
}

private extension Character {
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
