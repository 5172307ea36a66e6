/// The keys that one `type` of `[providers.NAME]` or `[sinks.NAME]` table accepts besides
/// the keys every table of its kind has: declared by the adapter, beside its code (its
/// ``ProviderKind`` or ``SinkKind``), and read by the configuration loader.
///
/// The loader checks unknown and missing keys and decodes each field by its kind into
/// ``AdapterOptions``; the adapter's factory then reads the decoded values by key.
public struct AdapterSchema: Sendable {
    /// How a field's value is checked and decoded.
    public enum Kind: Sendable, Equatable {
        /// Any non-empty string.
        case string
        /// One of these strings; the first is the default when the field is optional.
        case choice([String])
        /// An `http://` or `https://` URL.
        case url
        /// A URL with one of these schemes (`["smtp", "smtps"]`).
        case urlWithSchemes([String])
        /// A duration string (`"30s"`, `"1h30m"`).
        case duration
        /// An integer of at least 1.
        case positiveInteger
        /// A positive decimal number (integer or float literal, exact).
        case positiveDecimal
        /// `true` or `false`.
        case boolean
        /// An array of non-empty strings (at least one).
        case stringList
        /// An inline table whose values are strings (`headers = { X-Team = "ops" }`).
        case stringTable
        /// A path relative to the main file's directory that must name a readable file;
        /// decoded to an absolute path.
        case existingFile
        /// A secret: `{ file = "PATH" }`, `{ credential = "NAME" }` or `{ env = "VAR" }`.
        case secret
        /// A secret (as `secret`) whose value is a Standard Webhooks signing secret:
        /// `whsec_` followed by base64.
        case standardWebhooksSecret

        /// Whether values of this kind are secrets (never shown in logs, errors or output).
        public var isSecret: Bool { self == .secret || self == .standardWebhooksSecret }
    }

    /// One key of the table.
    public struct Field: Sendable {
        public let key: String
        public let kind: Kind
        public let required: Bool
        /// One line for messages and documentation, without the default (``documentation``
        /// adds it, from ``defaultValue``).
        public let summary: String
        /// The value an optional key takes when it is not written: the only place the default
        /// is declared. The configuration loader fills it in (``AdapterSchema/filling(_:)``), so
        /// an adapter reads the key like any written one and never has a fallback of its own.
        /// A `choice` field without one defaults to its first option.
        public let defaultValue: AdapterOptions.Value?

        public init(_ key: String, _ kind: Kind, required: Bool = false, default defaultValue: AdapterOptions.Value? = nil,
                    _ summary: String) {
            self.key = key
            self.kind = kind
            self.required = required
            if defaultValue == nil, !required, case .choice(let options) = kind, let first = options.first {
                self.defaultValue = .string(first)
            } else {
                self.defaultValue = defaultValue
            }
            self.summary = summary
        }

        /// The summary with the default, as messages and the documentation show it:
        /// `the deadline of one attempt (default "10s")`.
        public var documentation: String {
            guard let shown = defaultValue?.documentation else { return summary }
            return "\(summary) (default \(shown))"
        }
    }

    /// The field of `key`, if the type has one.
    public func field(_ key: String) -> Field? { fields.first { $0.key == key } }

    /// `options` with the default of every optional field that is not written: what the
    /// configuration loader hands to the adapter.
    public func filling(_ options: AdapterOptions) -> AdapterOptions {
        var filled = options
        for field in fields where filled[field.key] == nil {
            if let value = field.defaultValue { filled[field.key] = value }
        }
        return filled
    }

    /// The `type` value that selects this schema.
    public let type: String
    public let summary: String
    public let fields: [Field]
    /// Providers only: the type cannot work without the common `api_key` key.
    public var requiresAPIKey = false
    /// Checks across keys that the field kinds cannot express (an email sink's addresses and
    /// TLS mode), run when every field decoded; each problem is reported at its key.
    public var check: (@Sendable (AdapterOptions) -> [Problem])?
    /// Sinks only: the Apprise-style URLs (`tgram://TOKEN/CHAT`) that stand for a table of
    /// this type, when a `[sinks.NAME]` table is written as `url = "..."` without `type`.
    public var shorthand: URLShorthand?
    /// Sinks only: the service's published rate limit, which the outbox keeps unless the
    /// table's `rate_limit` says otherwise; nil: none.
    public var defaultRateLimit: DeliveryRateLimit?

    public init(type: String, summary: String, fields: [Field], requiresAPIKey: Bool = false,
                check: (@Sendable (AdapterOptions) -> [Problem])? = nil, shorthand: URLShorthand? = nil,
                defaultRateLimit: DeliveryRateLimit? = nil) {
        self.type = type
        self.summary = summary
        self.fields = fields
        self.requiresAPIKey = requiresAPIKey
        self.check = check
        self.shorthand = shorthand
        self.defaultRateLimit = defaultRateLimit
    }

    /// A problem `check` found with one key, or with one element of a list key.
    public struct Problem: Sendable {
        public let key: String
        public let index: Int?
        public let message: String

        public init(key: String, index: Int?, message: String) {
            self.key = key
            self.index = index
            self.message = message
        }
    }

    public var keys: [String] { fields.map(\.key) }

    /// The keys whose values are secrets.
    public var secretKeys: [String] { fields.filter(\.kind.isSecret).map(\.key) }
}

/// Every provider and sink type's schema, in the order messages list them: what the
/// configuration loader accepts. The application's adapter catalog provides it.
public struct AdapterSchemas: Sendable {
    public var providers: [AdapterSchema]
    public var sinks: [AdapterSchema]

    public init(providers: [AdapterSchema], sinks: [AdapterSchema]) {
        self.providers = providers
        self.sinks = sinks
    }
}
