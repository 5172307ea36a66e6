import CCurl

/// What an error message may say about a request's URL: scheme, host, port and path, parsed by
/// libcurl's own URL parser (`curl_url`), never the query, fragment or user info, and with every
/// redacted value replaced by `<redacted>`.
struct CurlRequestTarget: Sendable {
    /// Lowercased; nil when the URL did not parse.
    let scheme: String?
    /// `scheme://host[:port]/path` before redaction; nil when the URL did not parse.
    private let shown: String?
    private let url: String
    private let redactions: [String]

    init(url: String, redactions: [String]) {
        var scheme: String?
        var shown: String?
        if let handle = curl_url() {
            defer { curl_url_cleanup(handle) }
            if curl_url_set(handle, CURLUPART_URL, url, 0) == CURLUE_OK {
                func part(_ which: CURLUPart) -> String? {
                    var text: UnsafeMutablePointer<CChar>?
                    guard curl_url_get(handle, which, &text, 0) == CURLUE_OK, let text else { return nil }
                    defer { curl_free(text) }
                    return String(cString: text)
                }
                scheme = part(CURLUPART_SCHEME)?.lowercased()
                let host = part(CURLUPART_HOST) ?? ""
                let port = part(CURLUPART_PORT).map { ":" + $0 } ?? ""
                let path = part(CURLUPART_PATH) ?? "/"
                shown = "\(scheme ?? "")://\(host)\(port)\(path)"
            }
        }
        self.scheme = scheme
        self.shown = shown
        self.url = url
        self.redactions = redactions
    }

    /// `scheme://host[:port]/path`, or a cut-down form of the raw text when it did not parse,
    /// redacted. Made when a message needs it, not for every request.
    var description: String {
        if let shown { return Self.redact(shown, redactions) }
        // Redacted before the fallback is cut: a cut across a secret would leave its start.
        return String(Self.redact(String(url.prefix { $0 != "?" && $0 != "#" && $0 != "@" }), redactions).prefix(200))
    }

    /// `text` with every non-empty redaction replaced by `<redacted>`.
    static func redact(_ text: String, _ redactions: [String]) -> String {
        var result = text
        for secret in redactions where !secret.isEmpty {
            result = result.replacing(secret, with: "<redacted>")
        }
        return result
    }
}
