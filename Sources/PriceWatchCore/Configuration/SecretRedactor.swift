/// Removes every secret value of a configuration from text: API keys, passwords, signing
/// secrets, whatever path the text came through (a provider's error body that echoes the
/// request, a transport message, a sink's answer).
///
/// Built once per loaded configuration from every resolved ``Secret`` in it (provider
/// `api_key`, every secret-valued option of providers and sinks) and applied where errors
/// become text: the daemon's log handler and the commands' output. Each secret is searched
/// as written and in the forms a service echoes it in: percent-encoded (a query string) and
/// JSON-escaped (a body quoting the request). Longer secrets are replaced first, so a secret
/// that contains another is removed whole.
public struct SecretRedactor: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What a secret is replaced with.
    public static let placeholder = "<redacted>"
    /// Values shorter than this are not searched for: they cannot be useful secrets, and
    /// replacing them would garble every message that happens to contain them.
    public static let shortest = 4

    /// Every form of every secret, longest first.
    private let needles: [String]

    /// A redactor that changes nothing.
    public init() { needles = [] }

    /// A redactor for `secrets` (values, not descriptions).
    public init(secrets: some Sequence<String>) {
        var forms = Set<String>()
        for secret in secrets where secret.count >= Self.shortest {
            forms.insert(secret)
            forms.insert(Self.percentEncoded(secret))
            forms.insert(Self.jsonEscaped(secret))
        }
        self.init(needles: forms)
    }

    /// A redactor for every secret of `configuration`.
    public init(_ configuration: Configuration) {
        var values: [String] = []
        for provider in configuration.providers {
            if let key = provider.apiKey { values.append(key.value) }
            values += Self.secrets(in: provider.options)
        }
        for sink in configuration.sinks { values += Self.secrets(in: sink.options) }
        if let token = configuration.http?.token { values.append(token.value) }
        self.init(secrets: values)
    }

    /// A redactor for the secrets of both.
    public func merged(with other: SecretRedactor) -> SecretRedactor {
        SecretRedactor(needles: Set(needles).union(other.needles))
    }

    private init(needles: Set<String>) {
        self.needles = needles.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// Whether there is nothing to redact.
    public var isEmpty: Bool { needles.isEmpty }

    /// `text` with every secret replaced by ``placeholder``.
    public func redact(_ text: String) -> String {
        guard !needles.isEmpty else { return text }
        var result = text
        for needle in needles where result.contains(needle) {
            result = result.replacing(needle, with: Self.placeholder)
        }
        return result
    }

    public var description: String { "SecretRedactor(\(needles.count) forms)" }
    public var debugDescription: String { description }

    private static func secrets(in options: AdapterOptions) -> [String] {
        options.values.values.compactMap { value in
            if case .secret(let secret) = value { secret.value } else { nil }
        }
    }

    /// RFC 3986 percent-encoding of everything but the unreserved characters.
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result.append("%")
                result.append(hex[Int(byte >> 4)])
                result.append(hex[Int(byte & 0x0F)])
            }
        }
        return result
    }

    /// The secret as it appears inside a JSON string (`/` also as `\/`, as some services write it).
    static func jsonEscaped(_ text: String) -> String {
        String(JSONWriter.quoted(text).dropFirst().dropLast()).replacing("/", with: "\\/")
    }
}
