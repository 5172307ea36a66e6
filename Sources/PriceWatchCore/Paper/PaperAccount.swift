/// A paper-trading account: fake money in one currency, and the rules its orders obey.
///
/// An account is opened once (`pricewatch paper open`) and never changes afterwards; its
/// balances are derived from its ledger (``PaperBook``), never stored beside it.
public struct PaperAccount: Sendable, Hashable, Codable {
    /// The account's name: letters, digits, `-`, `_` and `.` (see ``isValidName(_:)``).
    public var name: String
    /// The ISO 4217 code of the account's money (`USD`), upper case.
    public var currency: String
    /// The fake money the account starts with.
    public var startingCash: ExactDecimal
    /// What every fill costs on top of its price.
    public var fees: PaperFees
    /// Whether a sell may take a position below zero.
    public var allowsShortSelling: Bool
    /// Whether a buy may take cash below zero.
    public var allowsNegativeCash: Bool
    /// The configured sinks a fill is announced to (a notification of kind `fill`); none by default.
    public var sinks: [String]
    /// When the account was opened (wall clock).
    public var openedAt: Timestamp

    public init(name: String, currency: String, startingCash: ExactDecimal, fees: PaperFees = .none,
                allowsShortSelling: Bool = false, allowsNegativeCash: Bool = false, sinks: [String] = [],
                openedAt: Timestamp) {
        self.name = name
        self.currency = currency.uppercased()
        self.startingCash = startingCash
        self.fees = fees
        self.allowsShortSelling = allowsShortSelling
        self.allowsNegativeCash = allowsNegativeCash
        self.sinks = sinks
        self.openedAt = openedAt
    }

    /// Whether `name` can name an account or an order: 1 to 64 of letters, digits, `-`, `_`, `.`.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }

    /// Whether `code` looks like an ISO 4217 currency code: three ASCII letters.
    public static func isValidCurrency(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) }
    }

    /// Whether `other` opens the same account (a retried `paper open`), ignoring the opening time.
    public func isSameOpening(as other: PaperAccount) -> Bool {
        var other = other
        other.openedAt = openedAt
        return other == self
    }
}

/// The fee of one fill: a flat amount plus a percent of the fill's notional value, both in the
/// account's currency; rounded half-even to 8 fractional digits.
public struct PaperFees: Sendable, Hashable, Codable {
    /// Charged on every fill.
    public var flat: ExactDecimal
    /// Percent of the notional (`0.1` is 0.1%).
    public var percent: ExactDecimal

    public init(flat: ExactDecimal = .zero, percent: ExactDecimal = .zero) {
        self.flat = flat
        self.percent = percent
    }

    public static let none = PaperFees()

    /// The fee of a fill of `notional`; nil when out of range.
    public func fee(forNotional notional: ExactDecimal) -> ExactDecimal? {
        guard let share = notional.multiplied(by: percent)?.divided(byInteger: 100) else { return nil }
        return flat.adding(share)
    }
}
