import PriceWatchCore

/// Percent-encoding of URL parts (RFC 3986): symbols such as `^GSPC`, `EURUSD=X` or
/// `BRK.B` and free-text queries go into paths and query strings unchanged in meaning.
public enum URLText {
    /// Encodes every byte but the unreserved characters `A-Z a-z 0-9 - . _ ~`.
    public static func encode(_ text: String) -> String {
        PercentEncoding.encoded(text)
    }

    /// `base` without trailing slashes, so `base + "/path"` has exactly one.
    public static func trimmedBase(_ base: String) -> String {
        var base = Substring(base)
        while base.hasSuffix("/") { base.removeLast() }
        return String(base)
    }
}
