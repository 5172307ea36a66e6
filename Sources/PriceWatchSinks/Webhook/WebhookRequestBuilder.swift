import PriceWatchCore

/// The pure half of the webhook sink: checks its settings once, then turns an alert and the
/// time of the attempt into the exact HTTP request to send.
///
/// A request carries the format's body and headers, then the custom headers (replacing the
/// format's headers of the same name), then `webhook-id` (the alert id), `webhook-timestamp`
/// (unix seconds of the attempt) and, with a secret, `webhook-signature`
/// (``StandardWebhookSignature``).
public struct WebhookRequestBuilder: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Headers the sink sets itself, which `headers` may not name.
    public static let reservedHeaders = ["webhook-id", "webhook-timestamp", "webhook-signature",
                                         "content-length", "transfer-encoding", "host", "connection"]
    /// A receiver's answer is read up to this size. Only its status and first line matter,
    /// but a larger answer fails the attempt (retryably), so the cap is generous: a receiver
    /// that answers a success with a whole HTML page must not look like a failure.
    static let maximumResponseBytes = 1 << 20

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

    /// Whether requests carry `webhook-signature`.
    public var isSigned: Bool { signer != nil }

    public var description: String {
        "WebhookRequestBuilder(\(endpoint.display), \(format.rawValue), headers: \(customHeaders.map(\.name)), signed: \(isSigned))"
    }

    public var debugDescription: String { description }

    /// The request for `alert` attempted at `now`.
    public func request(for alert: Alert, at now: Timestamp) -> HTTPRequest {
        request(id: alert.id, content: format.content(for: alert), at: now)
    }

    /// The request for a notification of any kind attempted at `now` (for an alert-shaped
    /// one, exactly ``request(for:at:)-(Alert,_)``'s body).
    public func request(for notification: OutgoingNotification, at now: Timestamp) -> HTTPRequest {
        request(id: notification.id, content: format.content(for: notification), at: now)
    }

    /// The one request for a group of two or more alerts (oldest first) attempted at `now`.
    public func request(for alerts: [Alert], at now: Timestamp) -> HTTPRequest {
        if alerts.count == 1, let only = alerts.first { return request(for: only, at: now) }
        let id = Self.groupID(for: alerts)
        return request(id: id, content: format.content(for: alerts, groupID: id), at: now)
    }

    /// A group's `webhook-id`: derived from every member's id (``AlertGroupID``), so a retried
    /// group keeps it, a group whose members changed gets a new one, and it never equals a lone
    /// alert's id.
    public static func groupID(for alerts: [Alert]) -> String { AlertGroupID.make(alerts) }

    private func request(id: String, content: WebhookContent, at now: Timestamp) -> HTTPRequest {
        var headers = content.headers
        for header in customHeaders {
            headers.removeAll { $0.name.lowercased() == header.name.lowercased() }
        }
        headers += customHeaders
        let timestamp = now.seconds
        headers.append(HTTPHeader("webhook-id", id))
        headers.append(HTTPHeader("webhook-timestamp", String(timestamp)))
        if let signer {
            headers.append(HTTPHeader("webhook-signature", signer.signature(id: id, timestamp: timestamp, body: content.body)))
        }
        var url = endpoint.url
        if !content.query.isEmpty {
            url += (url.contains("?") ? "&" : "?") + content.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        }
        return HTTPRequest(method: content.method, url: url, headers: headers, body: content.body, timeout: timeout,
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
            let printable = header.name.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }
            let found = header.name.isEmpty ? "an empty name" : printable ? "'\(header.name)'" : "a name with other characters"
            return "expected header names of letters, digits and !#$%&'*+-.^_`|~, found \(found)"
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
