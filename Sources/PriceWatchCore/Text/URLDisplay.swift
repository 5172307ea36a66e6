/// How a URL from the configuration is shown in a message: its scheme and host only.
///
/// A URL's path, query and user info may be secret (Slack and Discord webhook URLs carry their
/// token in the path, others an API key in the query or a password before the host), and a
/// typed-wrong URL (`htps://…`) is no less secret than a right one. So diagnostics show
/// `scheme://host`, and say when more was left out.
public enum URLDisplay {
    /// `"htps://hooks.slack.com"` for `htps://hooks.slack.com/services/T0/B0/XXXX`, quoted and
    /// escaped, followed by ` (the rest of the URL is not shown)` when anything was dropped.
    /// Without `://` the text up to the first `/`, `?` or `#` stands for the host.
    public static func schemeAndHost(_ url: String) -> String {
        var scheme = ""
        var rest = Substring(url)
        if let separator = url.firstRange(of: "://") {
            scheme = String(url[..<separator.lowerBound]) + "://"
            rest = url[separator.upperBound...]
        }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // user:password@host: keep only what follows the last '@'.
        let host = authority.split(separator: "@", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        let shown = scheme + host
        let omitted = shown.count < url.count
        return ControlCharacters.quoted(shown) + (omitted ? " (the rest of the URL is not shown)" : "")
    }
}
