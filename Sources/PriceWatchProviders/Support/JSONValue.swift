import Foundation

/// A parsed JSON document, for decoders that must tell a missing field from a wrong one and
/// accept the shapes services actually send (Yahoo's `{"raw": 1.5, "fmt": "1.50"}` numbers).
///
/// Numbers are `Double`s, as every JSON library reads them; prices become exact decimals
/// through ``PriceWatchCore/ExactDecimal/init(_:roundedToFractionDigits:)`` with the precision
/// the service publishes.
public enum JSONValue: Sendable, Hashable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses `bytes`; `nil` when they are not JSON.
    public static func parse(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    /// The member `key` of an object; `nil` for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    public var object: [String: JSONValue]? { if case .object(let members) = self { members } else { nil } }
    public var array: [JSONValue]? { if case .array(let elements) = self { elements } else { nil } }
    public var isNull: Bool { self == .null }

    /// A string value; empty strings count as absent.
    public var string: String? {
        if case .string(let text) = self, !text.isEmpty { text } else { nil }
    }

    /// A number, also from Yahoo's formatted `{"raw": …}` objects.
    public var number: Double? {
        switch self {
        case .number(let value): value
        case .object(let members): members["raw"]?.number
        default: nil
        }
    }

    /// An integral number (seconds, milliseconds, a precision hint).
    public var integer: Int64? {
        guard let value = number, value.rounded(.towardZero) == value, abs(value) < 9.0e15 else { return nil }
        return Int64(value)
    }
}
