import PriceWatchCore

/// Turns what the transport reported into the sink's verdict, for the dispatcher's retry
/// policy: `nil` for success, else a ``SinkError`` saying whether a retry can help.
///
/// - 2xx: delivered.
/// - 408, 429 and 5xx: retryable, with the receiver's `Retry-After` seconds when given.
/// - any other status (3xx, since redirects are not followed; 4xx): permanent.
/// - no complete response: retryable (connection refused or reset, timeout, TLS failure, a
///   cancelled attempt, an over-long answer), except an unusable request, which is permanent.
///
/// Messages start with the sink's identity and the receiver's scheme and host; what follows
/// (the quoted answer, the transport's reason) passes through the redactor, so no secret,
/// header value, path or query reaches them.
struct WebhookFailure {
    let identity: String
    let endpoint: WebhookEndpoint
    let redactor: WebhookRedactor

    /// How much of a rejected request's response body a message quotes (Slack answers
    /// `invalid_token` or `no_service`, which is what an operator needs to see).
    static let quotedBodyLength = 200

    func verdict(for response: HTTPResponse) -> SinkError? {
        let status = response.status
        if (200...299).contains(status) { return nil }
        var message = " answered HTTP \(status)"
        if (300...399).contains(status) {
            message += " (redirects are not followed: set url to the final address)"
        }
        let quoted = Self.quotedBody(response.body, redactor: redactor)
        if !quoted.isEmpty { message += ": \(quoted)" }
        if status == 408 || status == 429 || (500...599).contains(status) {
            let wait = response.retryAfterSeconds
            if let wait { message += " (retry after \(wait)s)" }
            return error(retryable: true, message, retryAfterSeconds: wait)
        }
        return error(retryable: false, message)
    }

    func verdict(for failure: HTTPTransportError) -> SinkError {
        let retryable = failure.kind != .invalidRequest
        let cause = failure.kind == .cancelled ? "the attempt was cancelled" : redactor.redact(Self.reason(failure.message))
        return error(retryable: retryable, ": \(cause)")
    }

    /// The transport's reason without its `POST http://host/path: ` prefix: the message
    /// already names the receiver, and the path may be a token.
    static func reason(_ message: String) -> String {
        guard message.hasPrefix("POST "), let separator = message.firstRange(of: ": ") else { return message }
        return String(message[separator.upperBound...])
    }

    /// `webhook/NAME: scheme://host` then `detail`, which the callers have redacted (the
    /// identity and host are not: a path segment such as `hook` must not garble `webhook/`).
    private func error(retryable: Bool, _ detail: String, retryAfterSeconds: Int64? = nil) -> SinkError {
        SinkError(retryable: retryable, "\(identity): \(endpoint.display)\(detail)", retryAfterSeconds: retryAfterSeconds)
    }

    /// The first line of the body, redacted, printable characters only, then cut to
    /// ``quotedBodyLength`` (redacted first: a secret across the cut would leave its start).
    static func quotedBody(_ body: [UInt8], redactor: WebhookRedactor) -> String {
        let text = String(decoding: body.prefix(maximumLineBytes), as: UTF8.self)
        let firstLine = redactor.redact(text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "")
        var result = ""
        for character in firstLine where !character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            if result.count == quotedBodyLength { return result + "…" }
            result.append(character)
        }
        return result.trimmingTrailingSpaces()
    }

    /// How much of the body is searched for its first line.
    static let maximumLineBytes = 1 << 16
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var result = Substring(self)
        while result.last == " " { result = result.dropLast() }
        return String(result)
    }
}
