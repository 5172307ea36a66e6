import PriceWatchCore

/// What ``LoopbackHTTPServer`` does with one request: an answer, or a fault.
///
/// `Content-Length` is always computed by the server; do not put it in ``headers``.
public struct LoopbackResponse: Sendable {
    /// How the server misbehaves instead of answering normally.
    public enum Fault: Sendable, Hashable {
        /// Sends the status line, the headers with the full `Content-Length`, only the first
        /// `bytes` bytes of the body, then closes the connection.
        case truncateBody(afterBytes: Int)
        /// Closes the connection without sending a byte.
        case closeWithoutAnswer
        /// Never answers; the connection stays open until the client gives up or the server stops.
        case hang
    }

    public var status: Int
    public var headers: [HTTPHeader]
    /// The body before any encoding.
    public var body: [UInt8]
    public var fault: Fault?
    /// When set, the server waits for this gate before answering (or misbehaving).
    public var gate: LoopbackGate?
    /// Sends the body with `Content-Encoding: gzip`.
    public var isGzipped: Bool
    /// Sends the body with `Transfer-Encoding: chunked` instead of `Content-Length`.
    public var isChunked: Bool

    public init(status: Int = 200, headers: [HTTPHeader] = [], body: [UInt8] = [], fault: Fault? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.fault = fault
        self.gate = nil
        self.isGzipped = false
        self.isChunked = false
    }

    /// A `text/plain` answer.
    public static func text(_ text: String, status: Int = 200, headers: [HTTPHeader] = []) -> Self {
        Self(status: status, headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8")] + headers,
             body: Array(text.utf8))
    }

    /// An `application/json` answer (the text is sent as is).
    public static func json(_ json: String, status: Int = 200, headers: [HTTPHeader] = []) -> Self {
        Self(status: status, headers: [HTTPHeader("Content-Type", "application/json")] + headers, body: Array(json.utf8))
    }

    /// An `text/html` answer (a provider's check page where JSON was expected).
    public static func html(_ html: String, status: Int = 200, headers: [HTTPHeader] = []) -> Self {
        Self(status: status, headers: [HTTPHeader("Content-Type", "text/html; charset=utf-8")] + headers,
             body: Array(html.utf8))
    }

    /// A bare status, e.g. `.status(429, headers: [HTTPHeader("Retry-After", "2")])`.
    public static func status(_ status: Int, headers: [HTTPHeader] = [], body: String = "") -> Self {
        Self(status: status, headers: headers, body: Array(body.utf8))
    }

    /// Announces all of `body` but sends only `afterBytes` of it, then closes.
    public static func truncated(_ body: String, afterBytes: Int, status: Int = 200) -> Self {
        Self(status: status, body: Array(body.utf8), fault: .truncateBody(afterBytes: afterBytes))
    }

    /// Closes the connection without answering.
    public static var closeWithoutAnswer: Self { Self(fault: .closeWithoutAnswer) }

    /// Never answers until the client gives up or the server stops.
    public static var hang: Self { Self(fault: .hang) }

    /// The same response, held until `gate` opens.
    public func after(_ gate: LoopbackGate) -> Self {
        var copy = self
        copy.gate = gate
        return copy
    }

    /// The same response, sent gzip-encoded.
    public func gzipped() -> Self {
        var copy = self
        copy.isGzipped = true
        return copy
    }

    /// The same response, sent with chunked transfer encoding.
    public func chunked() -> Self {
        var copy = self
        copy.isChunked = true
        return copy
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status"
        }
    }
}
