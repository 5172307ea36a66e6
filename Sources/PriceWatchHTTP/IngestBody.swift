import FoundationEssentials
import PriceWatchCore

/// The body of `POST /api/ingest/NAME`, checked: UTF-8 text, not empty, and whether it is a
/// JSON document. TradingView sends an alert's message as `application/json` when it parses
/// as JSON and as `text/plain` otherwise; a body declared JSON must be JSON, and an undeclared
/// one that parses as a JSON object or array is kept as JSON too.
struct IngestBody: Equatable {
    /// The most an idempotency key may hold (bytes).
    static let maximumIdempotencyKeyBytes = 200

    var text: String
    var isJSON: Bool

    /// Why a body was refused: one line naming what was expected and what was found.
    struct Invalid: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    init(bytes: [UInt8], contentType: String?) throws(Invalid) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Invalid(description: "the body is not UTF-8 text; expected the alert's message as UTF-8 text or JSON")
        }
        guard !text.allSatisfy(\.isWhitespace) else {
            throw Invalid(description: "the body is empty; expected the alert's message as text or JSON")
        }
        let declaredJSON = contentType.map { Self.mediaType($0) == "application/json" } ?? false
        let looksJSON = text.first(where: { !$0.isWhitespace }).map { $0 == "{" || $0 == "[" } ?? false
        let parses = (declaredJSON || looksJSON) && Self.isJSON(bytes)
        if declaredJSON && !parses {
            throw Invalid(description: "the body is declared application/json but is not JSON; "
                          + "expected a JSON document, found \(ControlCharacters.shown(String(text.prefix(40)), limit: 40))")
        }
        self.text = text
        self.isJSON = parses
    }

    /// `value` of a `Content-Type` header without its parameters, lowercased.
    static func mediaType(_ value: String) -> String {
        String(value.prefix { $0 != ";" }.filter { !$0.isWhitespace }).lowercased()
    }

    static func isJSON(_ bytes: [UInt8]) -> Bool {
        (try? JSONDecoder().decode(JSONShape.self, from: Data(bytes))) != nil
    }

    /// Checks an `Idempotency-Key` header: printable, at most ``maximumIdempotencyKeyBytes``.
    static func idempotencyKey(_ value: String?) throws(Invalid) -> String? {
        guard let value else { return nil }
        guard !value.isEmpty, value.utf8.count <= maximumIdempotencyKeyBytes, !ControlCharacters.contains(value) else {
            throw Invalid(description: "the Idempotency-Key header is not usable; expected 1 to \(maximumIdempotencyKeyBytes) "
                          + "printable characters, found \(value.utf8.count) bytes")
        }
        return value
    }
}

/// Any JSON value: decoding one checks a document is JSON.
private enum JSONShape: Decodable {
    case value

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            while !array.isAtEnd { _ = try array.decode(JSONShape.self) }
        } else if let object = try? decoder.container(keyedBy: AnyKey.self) {
            for key in object.allKeys { _ = try object.decode(JSONShape.self, forKey: key) }
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() || (try? single.decode(Bool.self)) != nil || (try? single.decode(String.self)) != nil {
                self = .value
                return
            }
            _ = try single.decode(Double.self)
        }
        self = .value
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
