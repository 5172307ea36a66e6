/// A forward-only reader of the one JSON shape a batch quote answer is made of: objects whose
/// wanted members are scalars, read straight from the body's bytes with no intermediate tree.
///
/// It exists for speed alone (docs/benchmarks.md, "The daemon as run": decoding 50,000 quotes
/// a poll through `JSONDecoder` and the lenient ``JSONField`` wrappers was a quarter of the
/// daemon's CPU). It is deliberately partial: anything it does not read plainly (a string with
/// an escape, a key with an escape, a duplicated wanted key, a number out of `Double`'s range,
/// nesting deeper than ``maximumDepth``, any JSON error) makes it give up with `nil`, and the
/// caller decodes the same body the general way, which owns every message about odd answers.
/// So it only ever returns what `JSONDecoder` would have read; `ScannedDecodingTests` and the
/// provider fuzz targets hold the two paths to the same result.
struct JSONRecordScanner {
    /// A wanted member's value as found.
    enum Scalar: Equatable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
        case array
        /// An object; `raw` is its `raw` member when that is a number (Yahoo's `{"raw": 1.5, "fmt": "1.50"}`).
        case object(raw: Double?)
    }

    /// Deeper nesting than this is left to the general decoder.
    static let maximumDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Whether only blank space is left.
    mutating func isAtEnd() -> Bool {
        skipBlank()
        return index == bytes.count
    }

    /// Consumes `byte` (after blank space) when it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        skipBlank()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Whether the next value (after blank space) starts with `byte`, without consuming it.
    mutating func next(is byte: UInt8) -> Bool {
        skipBlank()
        return index < bytes.count && bytes[index] == byte
    }

    /// Reads the members of the object that starts here, calling `member` with each key; the
    /// callback must consume the member's value (``scalar()``, ``skipValue()`` or a nested
    /// read) and return `false` to give up. `false` when this is not a well-formed object.
    mutating func members(_ member: (inout JSONRecordScanner, UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            // A key of invalid UTF-8 fails the whole object in the general decoder.
            guard let key = plainString(), key.allSatisfy({ $0 < 0x80 }) || String(validating: key, as: UTF8.self) != nil,
                  take(UInt8(ascii: ":")), member(&self, key) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// Reads the elements of the array that starts here, calling `element` for each (it must
    /// consume the element). `false` when this is not a well-formed array or a callback gave up.
    mutating func elements(_ element: (inout JSONRecordScanner) -> Bool) -> Bool {
        guard take(UInt8(ascii: "[")) else { return false }
        if take(UInt8(ascii: "]")) { return true }
        repeat {
            guard element(&self) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]"))
    }

    /// Reads the object that starts here, keeping the value of each member named in `names`,
    /// by position; `nil` to give up (not an object, a wanted member twice, a value left to the
    /// general decoder).
    mutating func record(_ names: [StaticString]) -> [Scalar?]? {
        guard next(is: UInt8(ascii: "{")) else { return nil }
        var found = [Scalar?](repeating: nil, count: names.count)
        let read = members { scanner, key in
            guard let field = names.firstIndex(where: { Self.key(key, is: $0) }) else { return scanner.skipValue() }
            guard found[field] == nil, let value = scanner.scalar() else { return false }
            found[field] = value
            return true
        }
        return read ? found : nil
    }

    /// The value that starts here, for a wanted member; `nil` to give up.
    mutating func scalar() -> Scalar? {
        skipBlank()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            guard let text = plainString() else { return nil }
            return String(validating: text, as: UTF8.self).map(Scalar.string)
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        case UInt8(ascii: "["): return skipValue() ? .array : nil
        case UInt8(ascii: "{"):
            var raw: Double?
            var seen = false
            let read = members { scanner, key in
                guard key.elementsEqual("raw".utf8) else { return scanner.skipValue() }
                guard !seen else { return false }
                seen = true
                // A container is skipped, not read: reading it could recurse without bound.
                if scanner.next(is: UInt8(ascii: "{")) || scanner.next(is: UInt8(ascii: "[")) { return scanner.skipValue() }
                guard let value = scanner.scalar() else { return false }
                if case .number(let number) = value { raw = number }
                return true
            }
            return read ? .object(raw: raw) : nil
        default:
            return number().map(Scalar.number)
        }
    }

    /// Skips the value that starts here, however nested (up to ``maximumDepth``), checking its
    /// grammar. `false` to give up.
    mutating func skipValue() -> Bool {
        // Bit n says whether the container open at depth n + 1 is an object.
        var objects: UInt64 = 0
        var depth = 0
        repeat {
            skipBlank()
            guard index < bytes.count else { return false }
            let opening = bytes[index]
            switch opening {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = opening == UInt8(ascii: "{")
                index += 1
                if take(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) { break }
                guard depth < Self.maximumDepth else { return false }
                if isObject { objects |= 1 << UInt64(depth) } else { objects &= ~(1 << UInt64(depth)) }
                depth += 1
                if isObject, !(skipString() && take(UInt8(ascii: ":"))) { return false }
                continue
            case UInt8(ascii: "\""):
                guard skipString() else { return false }
            case UInt8(ascii: "t"): guard literal("true") else { return false }
            case UInt8(ascii: "f"): guard literal("false") else { return false }
            case UInt8(ascii: "n"): guard literal("null") else { return false }
            default: guard number() != nil else { return false }
            }
            // After a complete value: close the containers it ends, then expect the next one.
            while depth > 0 {
                let isObject = objects & (1 << UInt64(depth - 1)) != 0
                if take(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    depth -= 1
                    continue
                }
                guard take(UInt8(ascii: ",")) else { return false }
                // Inside an object the next member starts with its key; arrays go on with a value.
                if isObject, !(skipString() && take(UInt8(ascii: ":"))) { return false }
                break
            }
        } while depth > 0
        return true
    }

    // MARK: - Lexing

    private mutating func skipBlank() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// A string without escapes or control characters, as its bytes; `nil` otherwise.
    private mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        skipBlank()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                index = end + 1
                return UnsafeBufferPointer(rebasing: bytes[start..<end])
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            end += 1
        }
        return nil
    }

    /// Skips a string, escapes included (a skipped value may have them); `false` when malformed,
    /// invalid UTF-8 included (the general decoder rejects the whole answer for it).
    private mutating func skipString() -> Bool {
        skipBlank()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return false }
        var cursor = index + 1
        var isASCII = true
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") {
                if !isASCII, String(validating: UnsafeBufferPointer(rebasing: bytes[index + 1..<cursor]), as: UTF8.self) == nil {
                    return false
                }
                index = cursor + 1
                return true
            }
            if byte >= 0x80 { isASCII = false }
            if byte < 0x20 { return false }
            if byte == UInt8(ascii: "\\") {
                guard cursor + 1 < bytes.count else { return false }
                switch bytes[cursor + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                     UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    cursor += 2
                    continue
                case UInt8(ascii: "u"):
                    guard cursor + 5 < bytes.count,
                          (2...5).allSatisfy({ Self.isHexDigit(bytes[cursor + $0]) }) else { return false }
                    cursor += 6
                    continue
                default:
                    return false
                }
            }
            cursor += 1
        }
        return false
    }

    /// A number by JSON's grammar, as `Double`; `nil` when malformed or not finite.
    private mutating func number() -> Double? {
        let start = index
        var cursor = index
        func digits() -> Int {
            let first = cursor
            while cursor < bytes.count, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "9") { cursor += 1 }
            return cursor - first
        }
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "-") { cursor += 1 }
        let integerStart = cursor
        let integerDigits = digits()
        guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return nil }
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ".") {
            cursor += 1
            guard digits() > 0 else { return nil }
        }
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "e") || bytes[cursor] == UInt8(ascii: "E") {
            cursor += 1
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") { cursor += 1 }
            guard digits() > 0 else { return nil }
        }
        guard cursor - start <= 64,
              let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<cursor]), as: UTF8.self)),
              value.isFinite else { return nil }
        index = cursor
        return value
    }

    /// Whether a key read by ``members(_:)`` is `name`.
    static func key(_ key: UnsafeBufferPointer<UInt8>, is name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard key.count == count else { return false }
        for offset in 0..<count where key[offset] != name.utf8Start[offset] { return false }
        return true
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
