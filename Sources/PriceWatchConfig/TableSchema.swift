/// The keys that one `type` of `[providers.NAME]` or `[sinks.NAME]` table accepts besides
/// the keys every table of its kind has.
///
/// Adding a provider or a sink type is adding a row to `ProviderTypes.all` or
/// `SinkTypes.all`: the reader checks unknown and missing keys and decodes each field by
/// its kind; the type's adapter then reads the decoded values from the model.
struct TableSchema: Sendable {
    /// How a field's value is checked and decoded.
    enum Kind: Sendable, Equatable {
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
    }

    /// One key of the table.
    struct Field: Sendable {
        let key: String
        let kind: Kind
        let required: Bool
        /// One line for messages and documentation.
        let summary: String

        init(_ key: String, _ kind: Kind, required: Bool = false, _ summary: String) {
            self.key = key
            self.kind = kind
            self.required = required
            self.summary = summary
        }
    }

    /// The `type` value that selects this schema.
    let type: String
    let summary: String
    let fields: [Field]

    var keys: [String] { fields.map(\.key) }
}
