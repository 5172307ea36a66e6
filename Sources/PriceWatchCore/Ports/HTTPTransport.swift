/// Sends one HTTP request and returns the whole response: the only way providers and sinks
/// reach the network.
///
/// Contract:
/// - ``send(_:)`` performs exactly one exchange (it follows no redirects beyond what
///   ``HTTPRequest/followsRedirects`` allows and never retries): retries, backoff and rate
///   limits are the caller's policy.
/// - Any HTTP status is a response, not an error; only failing to get a complete response
///   throws (connection refused, timeout, TLS failure, a body over the size cap, cancellation).
/// - The whole exchange ends by ``HTTPRequest/timeout``; cancelling the calling task ends it
///   promptly with ``HTTPTransportError/Kind/cancelled``.
/// - Error messages name the host and never contain a value listed in
///   ``HTTPRequest/redactions`` (API keys in query strings, tokens in headers).
/// - Blocking work (libcurl) runs off the Swift cooperative thread pool.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse
}

/// One header line; names compare case-insensitively in ``HTTPResponse/header(_:)``.
public struct HTTPHeader: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A request to send.
public struct HTTPRequest: Sendable, Hashable {
    public enum Method: String, Sendable, Hashable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case delete = "DELETE"
    }

    public var method: Method
    /// An absolute `http://` or `https://` URL, already percent-encoded.
    public var url: String
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    /// The deadline for the whole exchange, from connecting to the last byte.
    public var timeout: Duration
    /// A response body longer than this fails with ``HTTPTransportError/Kind/responseTooLarge``.
    public var maximumResponseBytes: Int
    /// Whether to follow up to 5 redirects (same protocols only).
    public var followsRedirects: Bool
    /// Strings that must never appear in an error message (an API key in the URL).
    public var redactions: [String]

    public init(method: Method = .get, url: String, headers: [HTTPHeader] = [], body: [UInt8] = [],
                timeout: Duration = .seconds(10), maximumResponseBytes: Int = 8 << 20,
                followsRedirects: Bool = false, redactions: [String] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.followsRedirects = followsRedirects
        self.redactions = redactions
    }
}

/// A complete response.
public struct HTTPResponse: Sendable, Hashable {
    public var status: Int
    /// Headers of the final response, in order; repeated names (`Set-Cookie`) stay separate.
    public var headers: [HTTPHeader]
    /// The body, already decompressed.
    public var body: [UInt8]

    public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first header named `name`, ignoring case.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every header named `name`, ignoring case.
    public func headers(named name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// `Retry-After` in seconds when given as delta-seconds (dates are ignored: clocks differ).
    public var retryAfterSeconds: Int64? {
        guard let text = header("Retry-After").map({ Substring($0).trimmingSpaces() }), let seconds = Int64(text), seconds >= 0 else { return nil }
        return seconds
    }
}

/// Why no complete response arrived.
public struct HTTPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// DNS failure, connection refused or reset, the server closed mid-answer.
        case connectionFailed
        /// The deadline passed.
        case timedOut
        /// Certificate or handshake failure.
        case tls
        /// The body exceeded ``HTTPRequest/maximumResponseBytes``.
        case responseTooLarge
        /// The calling task was cancelled.
        case cancelled
        /// The request itself was unusable (bad URL, unsupported scheme).
        case invalidRequest
    }

    public var kind: Kind
    /// Names the host and what happened; never contains a redacted value.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// Whether trying again later can help.
    public var isRetryable: Bool { kind == .connectionFailed || kind == .timedOut }

    public var description: String { message }
}
