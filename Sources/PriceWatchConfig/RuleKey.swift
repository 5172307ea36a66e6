/// A key of a `[[rule]]` table (`docs/rules.md`, "Rules"), in the order the documentation
/// lists them (which is also the order of "expected one of" in an unknown key's message).
///
/// Numbered, so that a set of them is a bit mask (``RuleKeys``): reading a rule asks about
/// two dozen keys, and most are not written.
enum RuleKey: Int, CaseIterable {
    case id, symbol, symbols, provider
    case above, below, rise, fall, move, crosses
    case from, rearm, cooldown, once, expires, enabled, notify, message, market, session, urgent
    case portfolio, measure, position
    case timeframe, of, trigger
    case event, before, match

    /// The key as written in TOML.
    var name: String { Self.names[rawValue] }

    /// Every key's name, in case order.
    private static let names = ["id", "symbol", "symbols", "provider", "above", "below", "rise", "fall", "move", "crosses",
                                "from", "rearm", "cooldown", "once", "expires", "enabled", "notify", "message", "market",
                                "session", "urgent", "portfolio", "measure", "position", "timeframe", "of", "trigger",
                                "event", "before", "match"]

    /// The key named `name`, if any: compared only with the keys of its length (at most
    /// nine), without hashing it.
    static func named(_ name: String) -> RuleKey? {
        let length = name.utf8.count
        guard length < byLength.count else { return nil }
        return byLength[length].first { $0.name == name }
    }

    /// The keys by the length of their name.
    private static let byLength: [[RuleKey]] = {
        var table = [[RuleKey]](repeating: [], count: (allCases.map(\.name.utf8.count).max() ?? 0) + 1)
        for key in allCases { table[key.name.utf8.count].append(key) }
        return table
    }()

    /// The keys that make a rule technical.
    static let technical: [RuleKey] = [.timeframe, .of, .trigger]

    /// The keys only event rules take.
    static let eventOnly: [RuleKey] = [.event, .before, .match]

    /// Whether the key is a percent condition (`rise`, `fall`, `move`).
    var isPercentCondition: Bool { self == .rise || self == .fall || self == .move }
}

/// A set of ``RuleKey``s, such as the keys one rule table has written: a bit each.
struct RuleKeys: OptionSet {
    let rawValue: UInt32

    init(rawValue: UInt32) { self.rawValue = rawValue }

    init(_ key: RuleKey) { rawValue = 1 << UInt32(key.rawValue) }

    /// The condition keys.
    static let conditions: RuleKeys = [.init(.above), .init(.below), .init(.rise), .init(.fall), .init(.move), .init(.crosses)]

    func contains(_ key: RuleKey) -> Bool { rawValue & (1 << UInt32(key.rawValue)) != 0 }

    mutating func insert(_ key: RuleKey) { formUnion(RuleKeys(key)) }

    /// How many keys are in the set.
    var count: Int { rawValue.nonzeroBitCount }

    /// The keys in the set, in ``RuleKey`` order.
    var keys: [RuleKey] {
        // A set of one key (a rule's one condition) answers with a shared array.
        if count == 1, let key = RuleKey(rawValue: rawValue.trailingZeroBitCount) { return Self.single[key.rawValue] }
        return RuleKey.allCases.filter(contains)
    }

    private static let single: [[RuleKey]] = RuleKey.allCases.map { [$0] }
}
