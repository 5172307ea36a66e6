import FoundationEssentials
import PriceWatchCore

/// The body of `POST /api/silences`, read strictly: a JSON object with `rule` or `symbol` (one
/// of them), `for` (a duration: `2h`) or `until` (RFC 3339; forms without an offset are read
/// in UTC), and an optional `comment`. Any other member is an error, so a misspelt key never
/// silently makes a longer or wider silence than meant; so is a member given twice (JSON
/// decoders keep one of them silently) and a control character in any member (SQLite would
/// store a text cut at a NUL, and the command line prints these values on one line).
struct SilenceRequest: Equatable {
    static let maximumBodyBytes = 4096
    static let maximumCommentLength = 1000

    var target: Silence.Target
    var endsAt: Timestamp
    var comment: String

    /// Why a body was refused: says which member, what was expected and what was found. One
    /// line: whatever it quotes from the body is escaped (``ControlCharacters``).
    struct Invalid: Error, Equatable, CustomStringConvertible {
        let description: String

        init(description: String) {
            self.description = ControlCharacters.escaped(description)
        }
    }

    init(body: [UInt8], now: Timestamp) throws(Invalid) {
        let example = "{\"rule\": \"aapl-above-200\", \"for\": \"2h\"}"
        let decoder = JSONDecoder()
        guard let object = try? decoder.decode([String: Member].self, from: Data(body)) else {
            let found = (try? decoder.decode(Member.self, from: Data(body)))?.description ?? "text that is not JSON"
            throw Invalid(description: "expected a JSON object such as \(example), found \(found)")
        }
        if let repeated = Self.repeatedMember(in: body) {
            throw Invalid(description: "the member \(ControlCharacters.shown(repeated)) is given more than once; expected each member once")
        }
        let known: Set<String> = ["rule", "symbol", "for", "until", "comment"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw Invalid(description: "unknown member \(ControlCharacters.shown(unknown)); expected rule or symbol, for or until, and comment")
        }
        func text(_ name: String) throws(Invalid) -> String? {
            guard let value = object[name] else { return nil }
            guard case .string(let string) = value else {
                throw Invalid(description: "\(name): expected a string, found \(value)")
            }
            guard !ControlCharacters.contains(string) else {
                throw Invalid(description: "\(name): expected text without control characters, found \(ControlCharacters.shown(string))")
            }
            return string
        }
        let rule = try text("rule"), symbol = try text("symbol")
        switch (rule, symbol) {
        case (let rule?, nil):
            guard !rule.isEmpty else { throw Invalid(description: "rule: expected a rule id, found an empty string") }
            target = .rule(rule)
        case (nil, let symbol?):
            guard !symbol.isEmpty else { throw Invalid(description: "symbol: expected a symbol, found an empty string") }
            target = .symbol(symbol)
        case (nil, nil):
            throw Invalid(description: "expected \"rule\" or \"symbol\", found neither")
        case (.some, .some):
            throw Invalid(description: "expected one of \"rule\" and \"symbol\", found both")
        }
        switch (try text("for"), try text("until")) {
        case (let duration?, nil):
            do {
                endsAt = try SilenceEnd.after(duration, now: now)
            } catch {
                throw Invalid(description: "for: " + Self.withoutOptionName(error.description))
            }
        case (nil, let end?):
            do {
                endsAt = try SilenceEnd.until(end, now: now, timeZone: TimeZone(identifier: "UTC") ?? .current)
            } catch {
                throw Invalid(description: "until: " + Self.withoutOptionName(error.description))
            }
        case (nil, nil):
            throw Invalid(description: "expected \"for\" (a duration such as \"2h\") or \"until\" (RFC 3339), found neither")
        case (.some, .some):
            throw Invalid(description: "expected one of \"for\" and \"until\", found both")
        }
        comment = try text("comment") ?? ""
        guard comment.count <= Self.maximumCommentLength else {
            throw Invalid(description: "comment: expected at most \(Self.maximumCommentLength) characters, found \(comment.count)")
        }
    }

    /// The first name given twice among the members of the top-level object of `body` (a
    /// valid JSON document), compared after unescaping (`"ru\\u006ce"` is `rule`).
    static func repeatedMember(in body: [UInt8]) -> String? {
        var seen = Set<String>()
        var depth = 0
        var expectingName = false
        var index = 0
        while index < body.count {
            let byte = body[index]
            switch byte {
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < body.count, body[index] != UInt8(ascii: "\"") {
                    if body[index] == UInt8(ascii: "\\") { index += 1 }
                    index += 1
                }
                if depth == 1, expectingName {
                    expectingName = false
                    let literal = Data(body[start..<min(index + 1, body.count)])
                    if let name = try? JSONDecoder().decode(String.self, from: literal), !seen.insert(name).inserted { return name }
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth == 1 { expectingName = byte == UInt8(ascii: "{") }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 1 { expectingName = true }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// `SilenceEnd`'s messages name the command line's option (`--for: ...`).
    private static func withoutOptionName(_ message: String) -> String {
        for prefix in ["--for: ", "--until: "] where message.hasPrefix(prefix) {
            return String(message.dropFirst(prefix.count))
        }
        return message
    }

    /// One JSON value, kept only as far as a message needs it.
    private enum Member: Decodable, CustomStringConvertible {
        case string(String), number, boolean, null, array, object

        init(from decoder: any Decoder) throws {
            if let container = try? decoder.singleValueContainer() {
                if container.decodeNil() { self = .null; return }
                if (try? container.decode(Bool.self)) != nil { self = .boolean; return }
                if (try? container.decode(Double.self)) != nil { self = .number; return }
                if let text = try? container.decode(String.self) { self = .string(text); return }
            }
            self = (try? decoder.unkeyedContainer()) != nil ? .array : .object
        }

        var description: String {
            switch self {
            case .string: "a string"
            case .number: "a number"
            case .boolean: "a boolean"
            case .null: "null"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }
}
