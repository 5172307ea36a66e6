/// Submits one RFC 5322 message to an SMTP server for an envelope: the only way sinks send mail.
///
/// Contract:
/// - ``send(_:)`` performs exactly one SMTP session: connect, EHLO, STARTTLS or implicit TLS as
///   ``MailSubmission/security`` says, AUTH when credentials are given, MAIL FROM, one RCPT TO
///   per recipient, DATA. It never retries: retries and backoff are the caller's policy.
/// - TLS is never optional once asked for: with ``MailSubmission/Security/startTLS`` a server
///   that does not offer STARTTLS is an error, never a plaintext send. Certificates are always
///   verified (against ``MailSubmission/caFile`` when given, else the system store).
///   ``MailSubmission/Security/none`` together with credentials is refused before connecting,
///   so a password never crosses the network in clear.
/// - An envelope address, the URL or the username holding a CR, an LF or a NUL is refused
///   before connecting (libcurl would pass it to the server as a command line of its own).
/// - Errors say whether a retry can help: connection failures, timeouts, TLS failures (a
///   certificate that lapsed, STARTTLS missing, perhaps stripped on the way: nothing was sent,
///   and a server is often mended within the retry window) and 4xx replies are retryable, and
///   so is a cancelled session (it must never dead-letter a message); 5xx replies (a rejected
///   recipient, failed authentication) and unusable submissions are permanent.
/// - The whole session ends by ``MailSubmission/timeout``; cancelling the calling task ends it
///   promptly with ``MailTransportError/Kind/cancelled``.
/// - Error messages name the server and never contain the password.
/// - Blocking work (libcurl) runs off the Swift cooperative thread pool.
public protocol MailTransport: Sendable {
    func send(_ submission: MailSubmission) async throws(MailTransportError)
}

/// One message to submit, with its envelope and how to reach the server.
public struct MailSubmission: Sendable, Hashable {
    /// How the connection is protected.
    public enum Security: String, Sendable, Hashable {
        /// `smtp://`: plain connection upgraded by STARTTLS, which the server must offer.
        case startTLS = "starttls"
        /// `smtps://`: TLS from the first byte.
        case implicitTLS = "implicit"
        /// `smtp://` without TLS, only when configured explicitly and never with credentials.
        case none
    }

    /// `smtp://host[:port]` or `smtps://host[:port]`, optionally with `/ehlo-domain`.
    public var url: String
    public var security: Security
    /// The envelope sender (`MAIL FROM`), a bare address: `alerts@example.com`.
    public var envelopeFrom: String
    /// The envelope recipients (`RCPT TO`), bare addresses, at least one.
    public var recipients: [String]
    /// The whole message, headers and body, with CRLF line ends.
    public var message: [UInt8]
    public var username: String?
    public var password: Secret?
    /// The deadline for the whole session, from connecting to the final reply.
    public var timeout: Duration
    /// A PEM file of CA certificates to trust instead of the system store (a private CA, tests).
    public var caFile: String?

    public init(url: String, security: Security, envelopeFrom: String, recipients: [String], message: [UInt8],
                username: String? = nil, password: Secret? = nil, timeout: Duration = .seconds(30),
                caFile: String? = nil) {
        self.url = url
        self.security = security
        self.envelopeFrom = envelopeFrom
        self.recipients = recipients
        self.message = message
        self.username = username
        self.password = password
        self.timeout = timeout
        self.caFile = caFile
    }

    /// The server part of ``url`` for messages: `smtp://mail.example.com:587`.
    public var serverName: String {
        guard let schemeEnd = url.firstRange(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        return String(url[..<schemeEnd.upperBound]) + authority
    }

    /// Why this submission must not be attempted, or `nil` when it may: an unsafe character in
    /// the URL, an envelope address or the username; no recipient; credentials without TLS; a
    /// scheme that does not match ``security``.
    public var problem: String? {
        let lowercased = url.lowercased()
        if MailText.hasLineBreakOrNUL(url) { return "the server URL contains a line break or NUL" }
        if MailText.hasLineBreakOrNUL(envelopeFrom) { return "the envelope sender contains a line break or NUL" }
        if let index = recipients.firstIndex(where: MailText.hasLineBreakOrNUL) {
            return "envelope recipient \(index + 1) contains a line break or NUL"
        }
        if let username, MailText.hasLineBreakOrNUL(username) { return "the username contains a line break or NUL" }
        if recipients.isEmpty { return "expected at least one recipient, found none" }
        switch security {
        case .implicitTLS:
            guard lowercased.hasPrefix("smtps://") else { return "implicit TLS needs an smtps:// URL, found \(serverName)" }
        case .startTLS, .none:
            guard lowercased.hasPrefix("smtp://") else { return "expected an smtp:// URL, found \(serverName)" }
        }
        if security == .none && (username != nil || password != nil) {
            return "refusing to authenticate without TLS (tls = \"none\" with a username or password)"
        }
        if (username == nil) != (password == nil) { return "a username needs a password and a password a username" }
        return nil
    }
}

/// Why a message could not be submitted.
public struct MailTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// DNS failure, connection refused or reset, the server closed the session.
        case connectionFailed
        /// The deadline passed.
        case timedOut
        /// STARTTLS not offered, certificate or handshake failure.
        case tls
        /// The server answered with a 4xx reply: try again later.
        case transientReply
        /// The server answered with a 5xx reply: a rejected sender or recipient, a message refused.
        case permanentReply
        /// The server refused the username and password.
        case authenticationFailed
        /// The calling task was cancelled (retryable: the message may not have been sent).
        case cancelled
        /// The submission itself was unusable (see ``MailSubmission/problem``).
        case invalidRequest
    }

    public var kind: Kind
    /// Names the server and what happened; never contains the password.
    public var message: String
    /// The SMTP reply code when the server gave one (`550`).
    public var replyCode: Int?

    public init(_ kind: Kind, _ message: String, replyCode: Int? = nil) {
        self.kind = kind
        self.message = message
        self.replyCode = replyCode
    }

    /// Whether trying again later can help.
    public var isRetryable: Bool {
        switch kind {
        case .connectionFailed, .timedOut, .tls, .transientReply, .cancelled: true
        case .permanentReply, .authenticationFailed, .invalidRequest: false
        }
    }

    public var description: String { message }
}
