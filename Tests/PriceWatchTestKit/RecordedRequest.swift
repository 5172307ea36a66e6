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
            guard let equals = pair.firstIndex(of: "=") else { return (Self.percentDecoded(pair), "") }
            return (Self.percentDecoded(pair[..<equals]), Self.percentDecoded(pair[pair.index(after: equals)...]))
        }
    }

    /// The first query value named `name`, percent-decoded.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let high = hexValue(utf8[utf8.startIndex]), let low = hexValue(utf8[utf8.startIndex + 1]) {
                bytes.append(high << 4 | low)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
