import FoundationEssentials
import PriceWatchCore

/// How every provider turns an HTTP exchange into JSON or a ``ProviderError``: one place for
/// the status classes, `Retry-After`, HTML where JSON was expected, and transport failures.
public enum ProviderAnswer {
    /// The body of a successful answer decoded into the service's typed answer `T`. HTML (a
    /// consent or bot-check page served with 200), an empty body or anything that is not JSON
    /// is a `malformedResponse`, never a price; so is JSON of another shape than `T`
    /// (`expected` says which).
    public static func decode<T: Decodable>(_ type: T.Type, _ response: HTTPResponse, endpoint: String,
                                            expected: String) throws(ProviderError) -> T {
        if looksLikeHTML(response) {
            throw ProviderError(.malformedResponse, "\(endpoint): expected JSON, found an HTML page (HTTP \(response.status))")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(response.body))
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw ProviderError(.malformedResponse, "\(endpoint): expected JSON, found \(snippet(response.body))")
        } catch {
            throw ProviderError(.malformedResponse, "\(endpoint): expected \(expected)")
        }
    }

    /// The body of a successful answer read by a fast `scan` (``JSONRecordScanner``) under the
    /// rule ``decode(_:_:endpoint:expected:)`` applies first: an HTML page is never read.
    /// `nil` when it is one or `scan` gave up; the caller then decodes the general way.
    static func scanned<T>(_ response: HTTPResponse, _ scan: ([UInt8]) -> T?) -> T? {
        guard !looksLikeHTML(response) else { return nil }
        return scan(response.body)
    }

    /// The body decoded as `T` when it is JSON of that shape; `nil` otherwise (error bodies,
    /// which services send in many shapes, or none).
    public static func decodeIfPossible<T: Decodable>(_ type: T.Type, _ response: HTTPResponse) -> T? {
        guard !looksLikeHTML(response), !response.body.isEmpty else { return nil }
        return try? JSONDecoder().decode(T.self, from: Data(response.body))
    }

    /// The error for a non-success status: 429 (and Binance's 418 ban) are `rateLimited` with
    /// the service's `Retry-After`; 408 and 5xx are `transient`; other statuses `permanent`.
    /// `detail` is the service's own message when its error body had one.
    public static func failure(_ response: HTTPResponse, endpoint: String, detail: String? = nil) -> ProviderError {
        let said = detail ?? (looksLikeHTML(response) ? "an HTML page" : snippet(response.body))
        let message = "\(endpoint): HTTP \(response.status): \(said)"
        switch response.status {
        case 429, 418:
            let wait = response.retryAfterSeconds
            return ProviderError(.rateLimited, message + (wait.map { " (retry after \($0) s)" } ?? ""), retryAfterSeconds: wait)
        case 503:
            return ProviderError(.transient, message, retryAfterSeconds: response.retryAfterSeconds)
        case 408, 500...599:
            return ProviderError(.transient, message)
        default:
            return ProviderError(.permanent, message)
        }
    }

    /// A transport failure as a provider error: connection problems and timeouts are
    /// transient, a body over the cap is malformed, a request we could not even form is permanent.
    public static func failure(_ error: HTTPTransportError, endpoint: String) -> ProviderError {
        switch error.kind {
        case .connectionFailed, .timedOut, .tls, .cancelled:
            ProviderError(.transient, "\(endpoint): \(error.message)")
        case .responseTooLarge:
            ProviderError(.malformedResponse, "\(endpoint): \(error.message)")
        case .invalidRequest:
            ProviderError(.permanent, "\(endpoint): \(error.message)")
        }
    }

    /// Sends `request`, mapping a transport failure to a provider error. The answer's body comes
    /// back with the request's ``HTTPRequest/redactions`` (an API key the service echoes)
    /// replaced, so every message that quotes it (cut to a length) is redacted before the cut.
    public static func send(_ request: HTTPRequest, through transport: any HTTPTransport,
                            endpoint: String) async throws(ProviderError) -> HTTPResponse {
        var response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw failure(error, endpoint: endpoint)
        }
        response.body = redacted(response.body, request.redactions)
        return response
    }

    /// `body` with every secret of `redactions` replaced (as written, percent-encoded or
    /// JSON-escaped); the same bytes when none occurs in it.
    static func redacted(_ body: [UInt8], _ redactions: [String]) -> [UInt8] {
        let redactor = SecretRedactor(secrets: redactions)
        guard !redactor.isEmpty else { return body }
        let text = String(decoding: body, as: UTF8.self)
        let clean = redactor.redact(text)
        return clean == text ? body : Array(clean.utf8)
    }

    /// Whether the body is an HTML page (by its first non-blank byte or its content type).
    public static func looksLikeHTML(_ response: HTTPResponse) -> Bool {
        if let type = response.header("Content-Type")?.lowercased(), type.contains("text/html") { return true }
        guard let first = response.body.first(where: { !isBlank($0) }) else { return false }
        return first == UInt8(ascii: "<")
    }

    /// The first line of a body, at most 200 characters, for messages: `an empty body` when blank.
    /// The body of an answer ``send(_:through:endpoint:)`` returned is already redacted.
    public static func snippet(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(400), as: UTF8.self)
        let line = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).first.map(String.init) ?? ""
        let trimmed = line.trimmingCharacters(in: " \t")
        if trimmed.isEmpty { return "an empty body" }
        return trimmed.count > 200 ? String(trimmed.prefix(200)) + "…" : trimmed
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0xEF || byte == 0xBB || byte == 0xBF
    }
}

extension String {
    /// The string without leading and trailing characters of `set`.
    func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
