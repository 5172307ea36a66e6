import PriceWatchCore

/// One field of a service's answer, decoded straight into `Value` when it has that type.
///
/// A field of another type (a price sent as `"10"`, a time as `null` inside an array) does not
/// fail the answer: ``value`` is `nil` and ``description`` says what was there, so one odd
/// field fails only its symbol and the message names it. Only that failure path looks at what
/// the value was; a well-typed answer decodes each field once, with no probing.
struct JSONField<Value: Decodable>: Decodable, CustomStringConvertible {
    let value: Value?
    private let found: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            value = try container.decode(Value.self)
            found = nil
        } catch {
            value = nil
            found = Self.describe(decoder)
        }
    }

    /// The value as written (strings quoted), or what was found in its place.
    var description: String {
        if let found { return found }
        guard let value else { return "nothing" }
        if let text = value as? String { return ControlCharacters.quoted(text) }
        if let number = value as? JSONNumber { return "\(number.value)" }
        return "\(value)"
    }

    /// What a value of an unexpected type is, for a message.
    static func describe(_ decoder: any Decoder) -> String {
        if let container = try? decoder.singleValueContainer() {
            if container.decodeNil() { return "null" }
            if let text = try? container.decode(String.self) {
                return ControlCharacters.quoted(String(text.prefix(60)))
            }
            if let flag = try? container.decode(Bool.self) { return "\(flag)" }
            if let number = try? container.decode(Double.self) { return "\(number)" }
        }
        if (try? decoder.unkeyedContainer()) != nil { return "an array" }
        if (try? decoder.container(keyedBy: AnyKey.self)) != nil { return "an object" }
        return "a number out of range"
    }
}

extension Optional {
    /// `"nothing"` for a missing field, else the field's own description.
    func described<Value>() -> String where Wrapped == JSONField<Value> {
        self?.description ?? "nothing"
    }
}

extension Optional where Wrapped == JSONField<String> {
    /// The non-empty text of a string field (empty strings count as absent).
    var text: String? {
        guard let value = self?.value, !value.isEmpty else { return nil }
        return value
    }
}

extension Optional where Wrapped == JSONField<JSONNumber> {
    /// The number of a number field.
    var number: Double? { self?.value?.value }

    /// An integral number (seconds, milliseconds, a precision hint), in range of `Int64`.
    var integer: Int64? { self?.value?.integer }
}

/// A JSON number; Yahoo also writes numbers as `{"raw": 1.5, "fmt": "1.50"}` objects.
struct JSONNumber: Decodable {
    let value: Double

    init(value: Double) {
        self.value = value
    }

    private enum Keys: String, CodingKey { case raw }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            value = number
        } else {
            value = try decoder.container(keyedBy: Keys.self).decode(Double.self, forKey: .raw)
        }
    }

    /// The number when it is integral and safely inside `Int64`.
    var integer: Int64? {
        guard value.rounded(.towardZero) == value, abs(value) < 9.0e15 else { return nil }
        return Int64(value)
    }
}

/// A value that may have the wrong shape without failing what contains it: `nil` then.
/// For array elements and nested objects whose shape is the service's, not ours, to get wrong.
struct Lenient<Value: Decodable>: Decodable {
    let value: Value?

    init(from decoder: any Decoder) throws {
        value = try? Value(from: decoder)
    }
}

/// Any key, to ask whether a value is an object.
private struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension JSONField where Value == String {
    /// The field as ``JSONRecordScanner`` found it; `nil` for `null`, as `decodeIfPresent` reads it.
    init?(scanned scalar: JSONRecordScanner.Scalar) {
        switch scalar {
        case .null: return nil
        case .string(let text): self.init(value: text, found: nil)
        default: self.init(value: nil, found: Self.describe(scalar))
        }
    }
}

extension JSONField where Value == JSONNumber {
    /// The field as ``JSONRecordScanner`` found it; `nil` for `null`, as `decodeIfPresent` reads it.
    init?(scanned scalar: JSONRecordScanner.Scalar) {
        switch scalar {
        case .null: return nil
        case .number(let number): self.init(value: JSONNumber(value: number), found: nil)
        case .object(let raw?): self.init(value: JSONNumber(value: raw), found: nil)
        default: self.init(value: nil, found: Self.describe(scalar))
        }
    }
}

extension JSONField {
    private init(value: Value?, found: String?) {
        self.value = value
        self.found = found
    }

    /// What ``describe(_:)`` says of the same value read by the general decoder.
    private static func describe(_ scalar: JSONRecordScanner.Scalar) -> String {
        switch scalar {
        case .null: "null"
        case .string(let text): ControlCharacters.quoted(String(text.prefix(60)))
        case .bool(let flag): "\(flag)"
        case .number(let number): "\(number)"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
