/// A trading venue or pseudo-market by its code: the ISO 10383 market identifier code (MIC)
/// where one exists (`XNYS`, `XLON`, `XETR`, `XTKS`), `CMES` for CME Globex futures, and the
/// pseudo-markets `24/5` (currencies) and `24/7` (crypto).
///
/// Codes are compared as written after upper-casing, so `xnys` and `XNYS` are one market.
public struct MarketIdentifier: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    public init(_ code: String) { self.init(rawValue: code) }

    /// Foreign exchange: open every weekday from midnight to midnight UTC (the convention of the
    /// calendar it is checked against; `docs/markets.md` says how this differs from the market).
    public static let currencies = MarketIdentifier("24/5")
    /// Crypto: never closes.
    public static let crypto = MarketIdentifier("24/7")

    public static func < (lhs: MarketIdentifier, rhs: MarketIdentifier) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }
}
