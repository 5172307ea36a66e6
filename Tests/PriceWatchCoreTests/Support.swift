@testable import PriceWatchCore

/// A decimal from a literal that is known to be valid (test tables only).
func dec(_ text: String) -> ExactDecimal {
    guard let value = ExactDecimal(text) else { preconditionFailure("invalid decimal literal in a test table: \(text)") }
    return value
}

/// An instant `ms` milliseconds after the epoch.
func at(_ ms: Int64) -> Timestamp { Timestamp(milliseconds: ms) }

/// An instant `m` minutes after the epoch.
func minutes(_ m: Int64) -> Timestamp { Timestamp(milliseconds: m * 60_000) }

/// A duration from a literal that is known to be valid (test tables only).
func duration(_ text: String) -> RuleDuration {
    guard let value = try? RuleDuration(parsing: text) else { preconditionFailure("invalid duration literal in a test table: \(text)") }
    return value
}
