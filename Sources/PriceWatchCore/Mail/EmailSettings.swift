/// The options of an `email` sink, checked as a whole: the configuration reader reports its
/// problems at file:line when the configuration loads, and the adapter factory builds the sink
/// from the same checked value, so the two can never disagree.
///
/// Beyond the per-key checks of the schema row: `from` and every `to` must be mail addresses
/// (``MailAddress``); `tls = "none"` is only for `smtp://` and never with a username or password;
/// `username` and `password` come together; the URL carries no credentials and no whitespace
/// or control characters; the `subject` template has known placeholders and no line break.
public struct EmailSettings: Sendable, Hashable {
    public var url: String
    public var security: MailSubmission.Security
    public var from: MailAddress
    public var to: [MailAddress]
    public var username: String?
    public var password: Secret?
    public var timeout: Duration
    public var caFile: String?
    /// The subject of single-alert messages; `nil` uses the alert's message.
    public var subject: MessageTemplate?

    /// One problem with one key (and, for lists, one element).
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public var key: String
        /// The element of a list key (`to`) the problem is about.
        public var index: Int?
        public var message: String

        public init(key: String, index: Int? = nil, _ message: String) {
            self.key = key
            self.index = index
            self.message = message
        }

        public var description: String { "\(key)\(index.map { "[\($0)]" } ?? ""): \(message)" }
    }

    /// Checks decoded options; returns the settings, or every problem found.
    public static func parse(_ options: AdapterOptions) -> (settings: EmailSettings?, problems: [Problem]) {
        var problems: [Problem] = []

        let url = options.string("url") ?? ""
        if url.isEmpty { problems.append(Problem(key: "url", "expected an smtp:// or smtps:// URL, found none")) }
        let lowercased = url.lowercased()
        let implicit = lowercased.hasPrefix("smtps://")
        // Credentials first: a URL that carries them is never quoted back.
        if let schemeEnd = url.firstRange(of: "://"), url[schemeEnd.upperBound...].prefix(while: { $0 != "/" }).contains("@") {
            problems.append(Problem(key: "url", "expected a URL without credentials (use 'username' and 'password'), found a '@' before the host"))
        } else if url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            problems.append(Problem(key: "url", "expected a URL without spaces or control characters, found \(MailText.quoted(url))"))
        }

        let tls = options.string("tls") ?? "starttls"
        let security: MailSubmission.Security = implicit ? .implicitTLS : (tls == "none" ? .none : .startTLS)
        if implicit && tls == "none" {
            problems.append(Problem(key: "tls", "expected no 'tls = \"none\"' with an smtps:// URL (smtps:// always uses TLS), found \"none\""))
        }

        var from: MailAddress?
        do { from = try MailAddress(parsing: options.string("from") ?? "") } catch { problems.append(Problem(key: "from", error.description)) }

        var to: [MailAddress] = []
        for (index, text) in (options.strings("to") ?? []).enumerated() {
            do {
                let address = try MailAddress(parsing: text)
                if to.contains(where: { $0.address.lowercased() == address.address.lowercased() }) {
                    problems.append(Problem(key: "to", index: index, "recipient '\(address.address)' is listed twice"))
                }
                to.append(address)
            } catch {
                problems.append(Problem(key: "to", index: index, error.description))
            }
        }
        if options.strings("to")?.isEmpty ?? true { problems.append(Problem(key: "to", "expected at least one recipient, found none")) }

        let username = options.string("username")
        let password = options.secret("password")
        if let username, MailText.hasControlCharacter(username) {
            problems.append(Problem(key: "username", "expected a username without control characters, found \(MailText.quoted(username))"))
        }
        if let password, MailText.hasLineBreakOrNUL(password.value) {
            problems.append(Problem(key: "password", "expected a password without a line break or NUL (from \(password.origin))"))
        }
        if username != nil && password == nil {
            problems.append(Problem(key: "username", "expected 'password' with 'username' (AUTH needs both), found no password"))
        } else if password != nil && username == nil {
            problems.append(Problem(key: "password", "expected 'username' with 'password' (AUTH needs both), found no username"))
        }
        if security == .none && (username != nil || password != nil) {
            problems.append(Problem(key: "tls", "refusing to send a password without TLS: remove 'tls = \"none\"' (STARTTLS) or use smtps://, or remove 'username' and 'password'"))
        }

        var subject: MessageTemplate?
        if let text = options.string("subject") {
            if MailText.hasControlCharacter(text) {
                problems.append(Problem(key: "subject", "expected one line without control characters, found \(MailText.quoted(text))"))
            } else {
                do { subject = try MessageTemplate(parsing: text) } catch { problems.append(Problem(key: "subject", error.description)) }
            }
        }

        // The configuration loader fills in the schema's default, so `timeout` is always there.
        let timeout = options.duration("timeout").map { Duration.seconds($0.seconds) }
        if timeout == nil { problems.append(Problem(key: "timeout", "missing; expected a duration")) }
        guard problems.isEmpty, let from, let timeout else { return (nil, problems) }
        let settings = EmailSettings(url: url, security: security, from: from, to: to, username: username,
                                     password: password, timeout: timeout,
                                     caFile: options.path("ca_file"), subject: subject)
        return (settings, [])
    }

    public init(url: String, security: MailSubmission.Security, from: MailAddress, to: [MailAddress],
                username: String? = nil, password: Secret? = nil, timeout: Duration,
                caFile: String? = nil, subject: MessageTemplate? = nil) {
        self.url = url
        self.security = security
        self.from = from
        self.to = to
        self.username = username
        self.password = password
        self.timeout = timeout
        self.caFile = caFile
        self.subject = subject
    }
}
