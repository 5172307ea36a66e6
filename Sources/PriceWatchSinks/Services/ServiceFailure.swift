import PriceWatchCore

/// Turns a notification service's answer into the sink's verdict, for the outbox's retry
/// policy (the sinks of Telegram, Pushover, Gotify and Matrix share it): `nil` for success,
/// else a ``SinkError`` saying whether a retry can help, and when.
///
/// - 2xx: delivered.
/// - 408, 429 and 5xx: retryable, with the wait the service asked for (its JSON's
///   `retry_after`, given by the caller, else `Retry-After`).
/// - any other status (3xx, since redirects are not followed; 400, 401, 403, 404, …):
///   permanent, so the notification goes to the dead letters at once.
/// - no complete response: retryable, except an unusable request, which is permanent.
///
/// Messages start with the sink's identity and the service's scheme and host; what follows
/// (the service's own description of the error, the transport's reason) passes through a
/// ``SecretRedactor`` of the sink's secrets, so a token the service echoes back never reaches
/// a log, an error or the dead letters, whole or in part.
struct ServiceFailure: Sendable {
    let identity: String
    /// `https://api.telegram.org`: scheme and host only.
    let display: String
    let redactor: SecretRedactor

    /// How much of the service's error a message quotes.
    static let quotedLength = 200

    func verdict(for response: HTTPResponse, detail: String? = nil, retryAfterSeconds: Int64? = nil) -> SinkError? {
        let status = response.status
        if (200...299).contains(status) { return nil }
        var message = " answered HTTP \(status)"
        if (300...399).contains(status) {
            message += " (redirects are not followed: set the service's address to the final one)"
        }
        let quoted = quote(detail ?? String(decoding: response.body.prefix(1 << 16), as: UTF8.self))
        if !quoted.isEmpty { message += ": \(quoted)" }
        if status == 408 || status == 429 || (500...599).contains(status) {
            let wait = retryAfterSeconds ?? response.retryAfterSeconds
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

    /// A notification the sink cannot render (never helped by a retry).
    func refused(_ reason: String) -> SinkError {
        error(retryable: false, ": \(redactor.redact(reason))")
    }

    /// The transport's reason without its `POST http://host/path: ` prefix: the message
    /// already names the service, and the path may hold a token (Telegram's does).
    static func reason(_ message: String) -> String {
        let methods = ["GET ", "POST ", "PUT ", "DELETE "]
        guard methods.contains(where: message.hasPrefix), let separator = message.firstRange(of: ": ") else { return message }
        return String(message[separator.upperBound...])
    }

    /// The first line of `text`, redacted, printable characters only, cut to
    /// ``quotedLength``, and redacted again (a cut may leave a part of a secret).
    func quote(_ text: String) -> String {
        let firstLine = redactor.redact(text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "")
        var result = ""
        for character in firstLine where !character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            if result.count == Self.quotedLength {
                result += "…"
                break
            }
            result.append(character)
        }
        while result.last == " " { result.removeLast() }
        return redactor.redact(result)
    }

    private func error(retryable: Bool, _ detail: String, retryAfterSeconds: Int64? = nil) -> SinkError {
        SinkError(retryable: retryable, "\(identity): \(display)\(detail)", retryAfterSeconds: retryAfterSeconds)
    }
}
