/// The type-specific keys of one `[providers.NAME]` or `[sinks.NAME]` table, checked and
/// decoded by the configuration reader from the type's schema row.
///
/// Adapters read their options by key (`options.string("url")`); the schema guarantees that a
/// required key is present and that every value has its declared kind, so a `nil` here means
/// an optional key that was not written (choices are filled with their default).
public struct AdapterOptions: Sendable, Hashable {
    /// One decoded value.
    public enum Value: Sendable, Hashable {
        case string(String)
        /// An absolute path.
        case path(String)
        case integer(Int)
        case decimal(ExactDecimal)
        case boolean(Bool)
        case duration(RuleDuration)
        case secret(Secret)
        case strings([String])
        /// A table of string values (`headers = { X-Team = "ops" }`), in file order.
        case stringTable([(key: String, value: String)])

        public static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.string(let a), .string(let b)), (.path(let a), .path(let b)): a == b
            case (.integer(let a), .integer(let b)): a == b
            case (.decimal(let a), .decimal(let b)): a == b
            case (.boolean(let a), .boolean(let b)): a == b
            case (.duration(let a), .duration(let b)): a == b
            case (.secret(let a), .secret(let b)): a == b
            case (.strings(let a), .strings(let b)): a == b
            case (.stringTable(let a), .stringTable(let b)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
            default: false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .string(let value), .path(let value): hasher.combine(value)
            case .integer(let value): hasher.combine(value)
            case .decimal(let value): hasher.combine(value)
            case .boolean(let value): hasher.combine(value)
            case .duration(let value): hasher.combine(value)
            case .secret(let value): hasher.combine(value)
            case .strings(let value): hasher.combine(value)
            case .stringTable(let pairs):
                for pair in pairs {
                    hasher.combine(pair.key)
                    hasher.combine(pair.value)
                }
            }
        }
    }

    public var values: [String: Value]

    public init(_ values: [String: Value] = [:]) {
        self.values = values
    }

    public subscript(key: String) -> Value? {
        get { values[key] }
        set { values[key] = newValue }
    }

    public func string(_ key: String) -> String? { if case .string(let value)? = values[key] { value } else { nil } }
    public func path(_ key: String) -> String? { if case .path(let value)? = values[key] { value } else { nil } }
    public func integer(_ key: String) -> Int? { if case .integer(let value)? = values[key] { value } else { nil } }
    public func decimal(_ key: String) -> ExactDecimal? { if case .decimal(let value)? = values[key] { value } else { nil } }
    public func boolean(_ key: String) -> Bool? { if case .boolean(let value)? = values[key] { value } else { nil } }
    public func duration(_ key: String) -> RuleDuration? { if case .duration(let value)? = values[key] { value } else { nil } }
    public func secret(_ key: String) -> Secret? { if case .secret(let value)? = values[key] { value } else { nil } }
    public func strings(_ key: String) -> [String]? { if case .strings(let value)? = values[key] { value } else { nil } }
    public func stringTable(_ key: String) -> [(key: String, value: String)]? {
        if case .stringTable(let value)? = values[key] { value } else { nil }
    }
}

extension AdapterOptions.Value {
    /// The value as the configuration file would write it (`"10s"`, `"text"`, `3`), for
    /// documentation and messages; secrets and tables are not defaults and show as their kind.
    public var documentation: String {
        switch self {
        case .string(let value), .path(let value): "\"\(value)\""
        case .integer(let value): "\(value)"
        case .decimal(let value): "\(value)"
        case .boolean(let value): "\(value)"
        case .duration(let value): "\"\(value)\""
        case .secret: "a secret"
        case .strings(let values): "[" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        case .stringTable: "a table"
        }
    }

    /// A duration default of whole seconds, as a schema declares it (`default: .seconds(10)`);
    /// `nil` (no default) for a length that is not positive.
    public static func seconds(_ seconds: Int64) -> AdapterOptions.Value? {
        RuleDuration(seconds: seconds).map { .duration($0) }
    }

    /// The duration as a `Duration`, when this is one.
    public var durationValue: Duration? {
        if case .duration(let value) = self { .seconds(value.seconds) } else { nil }
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }
}
