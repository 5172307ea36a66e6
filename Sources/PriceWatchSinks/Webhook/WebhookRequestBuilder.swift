import PriceWatchCore

/// The pure half of the webhook sink: checks its settings once, then turns an alert and the
/// time of the attempt into the exact HTTP request to send.
///
/// A request carries the format's body and headers, then the custom headers (replacing the
/// format's headers of the same name), then `webhook-id` (the alert id), `webhook-timestamp`
/// (unix seconds of the attempt) and, with a secret, `webhook-signature`
/// (``StandardWebhookSignature``).
public struct WebhookRequestBuilder: Sendable {
    /// Headers the sink sets itself, which `headers` may not name.
    public static let reservedHeaders = ["webhook-id", "webhook-timestamp", "webhook-signature",
                                         "content-length", "transfer-encoding", "host", "connection"]
    /// A receiver's answer is read up to this size (only its status and first line matter).
    static let maximumResponseBytes = 64 << 10

    public let endpoint: WebhookEndpoint
    public let format: WebhookFormat
    private let customHeaders: [HTTPHeader]
    private let timeout: Duration
    private let signer: StandardWebhookSignature?
    let redactor: WebhookRedactor

    /// Checks `settings`; the error names the key at fault and never shows the URL, a header
    /// value or the secret.
    public init(_ settings: WebhookSink.Settings) throws(WebhookConfigurationError) {
        do {
            endpoint = try WebhookEndpoint(settings.url)
        } catch {
            throw WebhookConfigurationError("url: \(error)")
        }
        for header in settings.headers {
            if let problem = Self.problem(with: header) { throw WebhookConfigurationError("headers: \(problem)") }
        }
        if let secret = settings.secret {
            do {
                signer = try StandardWebhookSignature(secret: secret)
            } catch {
                throw WebhookConfigurationError("secret: \(error)")
            }
        } else {
            signer = nil
        }
        guard settings.timeout > .zero else { throw WebhookConfigurationError("timeout: expected a duration above zero") }
        format = settings.format
        customHeaders = settings.headers
        timeout = settings.timeout
        var sensitive = endpoint.sensitiveParts + settings.headers.map(\.value)
        if let secret = settings.secret {
            sensitive += [secret, String(secret.dropFirst(StandardWebhookSignature.secretPrefix.count))]
        }
        redactor = WebhookRedactor(sensitive)
    }

    /// The request for `alert` attempted at `now`.
    public func request(for alert: Alert, at now: Timestamp) -> HTTPRequest {
        let content = format.content(for: alert)
        var headers = content.headers
        for header in customHeaders {
            headers.removeAll { $0.name.lowercased() == header.name.lowercased() }
        }
        headers += customHeaders
        let timestamp = now.seconds
        headers.append(HTTPHeader("webhook-id", alert.id))
        headers.append(HTTPHeader("webhook-timestamp", String(timestamp)))
        if let signer {
            headers.append(HTTPHeader("webhook-signature", signer.signature(id: alert.id, timestamp: timestamp, body: content.body)))
        }
        return HTTPRequest(method: .post, url: endpoint.url, headers: headers, body: content.body, timeout: timeout,
                           maximumResponseBytes: Self.maximumResponseBytes, followsRedirects: false,
                           redactions: redactor.secrets)
    }

    /// Why a custom header cannot be sent, naming it but never showing its value.
    static func problem(with header: HTTPHeader) -> String? {
        let tokenCharacters = Set("!#$%&'*+-.^_`|~".unicodeScalars)
        let isToken = !header.name.isEmpty && header.name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || tokenCharacters.contains(scalar))
        }
        guard isToken else {
            return "expected header names of letters, digits and !#$%&'*+-.^_`|~, found \(header.name.isEmpty ? "an empty name" : "a name with other characters")"
        }
        if reservedHeaders.contains(header.name.lowercased()) {
            return "header '\(header.name)' is set by the sink itself and cannot be configured"
        }
        if header.value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
            return "the value of header '\(header.name)' contains a line break or a control character"
        }
        return nil
    }
}
