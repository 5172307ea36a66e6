import PriceWatchCore

/// One request as ``LoopbackHTTPServer`` received it, handed to handlers and kept for assertions.
public struct RecordedRequest: Sendable, Hashable {
    /// The method as sent (`GET`, `POST`, ...).
    public var method: String
    /// The request target as sent: path and query (`/v7/finance/quote?symbols=AAPL`).
    public var target: String
    /// The path part of the target, still percent-encoded (`/v7/finance/quote`).
    public var path: String
    /// The raw query after `?`, still percent-encoded; empty when there is none.
    public var query: String
    /// Header lines in the order sent; repeated names stay separate.
    public var headers: [HTTPHeader]
    /// The body, de-chunked when it came with `Transfer-Encoding: chunked`.
    public var body: [UInt8]

    public init(method: String, target: String, headers: [HTTPHeader], body: [UInt8]) {
        self.method = method
        self.target = target
        if let mark = target.firstIndex(of: "?") {
            path = String(target[..<mark])
            query = String(target[target.index(after: mark)...])
        } else {
            path = target
            query = ""
        }
        self.headers = headers
        self.body = body
    }

    /// The first header named `name`, ignoring case.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// The query's `name=value` pairs in order, percent-decoded (`+` stays `+`).
    public var queryItems: [(name: String, value: String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return (PercentEncoding.decoded(pair), "") }
            return (PercentEncoding.decoded(pair[..<equals]), PercentEncoding.decoded(pair[pair.index(after: equals)...]))
        }
    }

    /// The first query value named `name`, percent-decoded.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}
