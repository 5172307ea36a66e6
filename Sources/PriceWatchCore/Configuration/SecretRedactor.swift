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
///
/// Text is often cut before it reaches the redactor (an error line shortened to 200
/// characters), which leaves only part of a secret that sat across the cut. So any run of
/// ``fragmentLength`` characters of a secret (in any of its forms) counts as the secret: each
/// stretch of text covered by such runs is replaced by one ``placeholder``. Code that cuts text
/// still redacts first and cuts after; this catches what a cut elsewhere leaves.
public struct SecretRedactor: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What a secret is replaced with.
    public static let placeholder = "<redacted>"
    /// Values shorter than this are not searched for: they cannot be useful secrets, and
    /// replacing them would garble every message that happens to contain them.
    public static let shortest = 4
    /// The shortest run of a secret's characters that is redacted as the secret (a part left by
    /// a cut). Secrets shorter than this are only found whole.
    public static let fragmentLength = 6

    /// Every form of every secret, longest first.
    private let needles: [String]
    /// Every run of ``fragmentLength`` Unicode scalars of every form of every secret.
    private let fragments: Set<Fragment>

    /// A redactor that changes nothing.
    public init() {
        needles = []
        fragments = []
    }

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
        var fragments = Set<Fragment>()
        for needle in needles {
            let scalars = Array(needle.unicodeScalars)
            guard scalars.count >= Self.fragmentLength else { continue }
            for start in 0...(scalars.count - Self.fragmentLength) {
                fragments.insert(Fragment(scalars[start..<(start + Self.fragmentLength)]))
            }
        }
        self.fragments = fragments
    }

    /// Whether there is nothing to redact.
    public var isEmpty: Bool { needles.isEmpty }

    /// `text` with every secret, and every stretch of runs of ``fragmentLength`` characters of
    /// one, replaced by ``placeholder``.
    public func redact(_ text: String) -> String {
        guard !needles.isEmpty else { return text }
        var result = text
        for needle in needles where result.contains(needle) {
            result = result.replacing(needle, with: Self.placeholder)
        }
        return fragments.isEmpty ? result : withoutFragments(result)
    }

    /// `text` with each stretch covered by runs found in ``fragments`` replaced by one placeholder.
    private func withoutFragments(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        let length = Self.fragmentLength
        guard scalars.count >= length else { return text }
        // The end of the covered stretch so far; -1: none yet.
        var coveredUntil = -1
        var stretches: [Range<Int>] = []
        for start in 0...(scalars.count - length) where fragments.contains(Fragment(scalars[start..<(start + length)])) {
            if let last = stretches.last, start <= coveredUntil {
                stretches[stretches.count - 1] = last.lowerBound..<(start + length)
            } else {
                stretches.append(start..<(start + length))
            }
            coveredUntil = start + length
        }
        guard !stretches.isEmpty else { return text }
        var result = String.UnicodeScalarView()
        var position = 0
        for stretch in stretches {
            result.append(contentsOf: scalars[position..<stretch.lowerBound])
            result.append(contentsOf: Self.placeholder.unicodeScalars)
            position = stretch.upperBound
        }
        result.append(contentsOf: scalars[position...])
        return String(result)
    }

    /// ``fragmentLength`` scalars, hashed without making a string.
    private struct Fragment: Hashable, Sendable {
        let a: UInt32, b: UInt32, c: UInt32, d: UInt32, e: UInt32, f: UInt32

        init(_ scalars: ArraySlice<Unicode.Scalar>) {
            let i = scalars.startIndex
            a = scalars[i].value
            b = scalars[i + 1].value
            c = scalars[i + 2].value
            d = scalars[i + 3].value
            e = scalars[i + 4].value
            f = scalars[i + 5].value
        }
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
        PercentEncoding.encoded(text)
    }

    /// The secret as it appears inside a JSON string (`/` also as `\/`, as some services write it).
    static func jsonEscaped(_ text: String) -> String {
        String(JSONWriter.quoted(text).dropFirst().dropLast()).replacing("/", with: "\\/")
    }
}
