import PriceWatchCore

/// Reads Yahoo's error envelopes: `{"finance":{"error":{"code","description"}}}`,
/// `{"chart":{"error":…}}`, `{"quoteSummary":{"error":…}}`.
public enum YahooErrorDecoder {
    /// The error `description` of a Yahoo error body, or `nil` when the body has none.
    public static func description(_ response: HTTPResponse) -> String? {
        guard let document = ProviderAnswer.decodeIfPossible(YahooWire.ErrorAnswer.self, response) else { return nil }
        for envelope in [document.finance, document.chart, document.quoteSummary, document.quoteResponse] {
            if let error = envelope?.value?.error?.value, let text = error.description.text ?? error.code.text {
                return text
            }
        }
        return nil
    }

    /// Whether a v7 answer rejects our session (HTTP 401 `Invalid Crumb` / `Invalid Cookie`, or
    /// any 401): the provider then fetches a new cookie and crumb once and repeats the request.
    public static func rejectsSession(_ response: HTTPResponse) -> Bool {
        response.status == 401
    }

    /// The crumb of a `/v1/test/getcrumb` answer: a short token without blanks or markup.
    public static func crumb(_ response: HTTPResponse) throws(ProviderError) -> String {
        let endpoint = "yahoo getcrumb"
        guard response.status == 200 else {
            throw ProviderAnswer.failure(response, endpoint: endpoint, detail: description(response))
        }
        let text = String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: " \t\r\n")
        let valid = !text.isEmpty && text.count <= 64
            && !text.contains(where: { $0 == " " || $0 == "<" || $0 == "{" || $0 == "\n" || $0 == "\t" })
        guard valid, !ProviderAnswer.looksLikeHTML(response) else {
            throw ProviderError(.malformedResponse, "\(endpoint): expected a crumb, found \(ProviderAnswer.snippet(response.body))")
        }
        return text
    }

    /// The `Cookie` header value from a session answer's `Set-Cookie` headers (`A3=…; A1=…`),
    /// or `nil` when it set none.
    public static func cookie(_ response: HTTPResponse) -> String? {
        let pairs = response.headers(named: "Set-Cookie").compactMap { line -> String? in
            let pair = line.split(separator: ";", maxSplits: 1).first.map { String($0).trimmingCharacters(in: " ") } ?? ""
            return pair.contains("=") && !pair.hasPrefix("=") ? pair : nil
        }
        return pairs.isEmpty ? nil : pairs.joined(separator: "; ")
    }
}
