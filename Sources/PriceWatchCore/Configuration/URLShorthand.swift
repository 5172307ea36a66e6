/// How a sink type reads the one-line, Apprise-style form of its table
/// (`url = "tgram://TOKEN/CHAT"` without `type`): the schemes it answers to, and the
/// expansion of such a URL into the options its long form would write.
///
/// The expansion returns decoded options: secret parts (tokens, passwords) as `.secret`
/// values, so the configuration's redactor knows them like any other secret. The loader
/// then fills in defaults and runs the schema's `check`, exactly as for the long form; keys
/// written beside `url` replace what the URL said.
public struct URLShorthand: Sendable {
    /// The lowercase schemes this type answers to (`["tgram"]`, `["ntfy", "ntfys"]`).
    public let schemes: [String]
    /// One example per form, for messages and documentation (`tgram://TOKEN/CHAT`).
    public let examples: [String]
    /// The options of the long form; `origin` is where the URL came from, for the secrets'
    /// ``Secret/origin``. Errors never contain the URL or a part of it that may be secret.
    public let expand: @Sendable (_ url: ShorthandURL, _ origin: String) throws(ShorthandURL.Problem) -> AdapterOptions

    public init(schemes: [String], examples: [String],
                expand: @escaping @Sendable (_ url: ShorthandURL, _ origin: String) throws(ShorthandURL.Problem) -> AdapterOptions) {
        self.schemes = schemes
        self.examples = examples
        self.expand = expand
    }
}
