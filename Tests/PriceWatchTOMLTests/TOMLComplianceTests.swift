import Foundation
import Testing
import PriceWatchTOML

/// The official TOML compliance suite, toml-lang/toml-test (MIT, `Tests/Fixtures/toml-test`):
/// every TOML 1.0 valid case decodes to exactly its JSON, and every 1.0 invalid case is
/// rejected. Each case is its own test argument, so a failure names the case.
@Suite struct TOMLComplianceTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/toml-test").path

    /// The paths listed in `files-toml-1.0.0`.
    static let cases: [String] = {
        guard let list = try? String(contentsOfFile: corpus + "/files-toml-1.0.0", encoding: .utf8) else { return [] }
        return list.split(separator: "\n").map(String.init).filter { $0.hasSuffix(".toml") }
    }()

    static let validCases = cases.filter { $0.hasPrefix("valid/") }
    static let invalidCases = cases.filter { $0.hasPrefix("invalid/") }

    @Test func theCorpusIsComplete() {
        #expect(Self.validCases.count == 210)
        #expect(Self.invalidCases.count == 499)
    }

    @Test(arguments: validCases)
    func valid(_ path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/" + path)))
        let result = TOMLParser.parse(bytes: bytes)
        if let error = result.error {
            Issue.record("\(path): rejected a valid document: \(error)")
            return
        }
        #expect(result.laterErrors.isEmpty, "\(path)")
        let jsonPath = Self.corpus + "/" + path.dropLast(".toml".count) + ".json"
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: jsonPath)),
                                                        options: [.fragmentsAllowed])
        if let mismatch = TaggedJSON.mismatch(.table(result.partialRoot), expected, at: "") {
            Issue.record("\(path): \(mismatch)")
        }
    }

    @Test(arguments: invalidCases)
    func invalid(_ path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/" + path)))
        let result = TOMLParser.parse(bytes: bytes)
        #expect(result.error != nil, "\(path): accepted an invalid document")
        // Errors found after resynchronising come after the first, never before it.
        #expect(result.errors.first == result.error, "\(path)")
        #expect(result.laterErrors.allSatisfy { ($0.position.line, $0.position.column) > (result.error?.position.line ?? 0,
                                                                                          result.error?.position.column ?? 0) },
                "\(path): \(result.errors)")
    }
}

/// Compares a parsed value with toml-test's tagged JSON (`{"type": "integer", "value": "42"}`),
/// semantically: integers and floats by value (`inf`, `nan` included), date-times in one
/// normal form (`T` and `Z` upper case, the fraction without trailing zeros).
enum TaggedJSON {
    static func mismatch(_ value: TOMLValue, _ expected: Any, at path: String) -> String? {
        switch value {
        case .table(let table):
            guard let object = expected as? [String: Any], !isScalar(object) else {
                return "\(path): found a table, expected \(expected)"
            }
            if Set(table.keys) != Set(object.keys) || table.count != object.count {
                return "\(path): keys \(table.keys.sorted()) != expected \(object.keys.sorted())"
            }
            for entry in table.entries {
                if let problem = mismatch(entry.value, object[entry.key] as Any, at: path + "." + entry.key) { return problem }
            }
            return nil
        case .array(let array):
            guard let elements = expected as? [Any] else { return "\(path): found an array, expected \(expected)" }
            guard elements.count == array.count else { return "\(path): \(array.count) elements, expected \(elements.count)" }
            for (index, element) in array.elements.enumerated() {
                if let problem = mismatch(element, elements[index], at: path + "[\(index)]") { return problem }
            }
            return nil
        default:
            guard let object = expected as? [String: Any], isScalar(object),
                  let type = object["type"] as? String, let text = object["value"] as? String else {
                return "\(path): found \(value), expected \(expected)"
            }
            let (myType, myText) = tagged(value)
            guard myType == type else { return "\(path): type \(myType), expected \(type)" }
            switch type {
            case "integer":
                return Int64(text) == Int64(myText) ? nil : "\(path): \(myText), expected \(text)"
            case "float":
                guard case .float(let float) = value, let wanted = double(text) else { return "\(path): bad float \(text)" }
                let same = (wanted.isNaN && float.value.isNaN) || wanted == float.value
                return same ? nil : "\(path): \(float.value), expected \(text)"
            case "datetime", "datetime-local", "date-local", "time-local":
                return normalDateTime(myText) == normalDateTime(text) ? nil : "\(path): \(myText), expected \(text)"
            default:
                return myText == text ? nil : "\(path): \(myText.debugDescription), expected \(text.debugDescription)"
            }
        }
    }

    static func isScalar(_ object: [String: Any]) -> Bool {
        object.count == 2 && object["type"] is String && object["value"] is String
    }

    static func double(_ text: String) -> Double? {
        switch text {
        case "inf", "+inf": .infinity
        case "-inf": -.infinity
        case "nan", "+nan", "-nan": .nan
        default: Double(text)
        }
    }

    static func tagged(_ value: TOMLValue) -> (String, String) {
        func pad(_ number: Int, _ width: Int) -> String {
            let text = String(number)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        func date(_ d: TOMLDate) -> String { "\(pad(d.year, 4))-\(pad(d.month, 2))-\(pad(d.day, 2))" }
        func time(_ t: TOMLTime) -> String {
            "\(pad(t.hour, 2)):\(pad(t.minute, 2)):\(pad(t.second, 2))" + (t.nanosecond > 0 ? "." + pad(t.nanosecond, 9) : "")
        }
        switch value {
        case .string(let text): return ("string", text)
        case .integer(let integer): return ("integer", String(integer))
        case .float(let float): return ("float", float.literal)
        case .boolean(let flag): return ("bool", String(flag))
        case .date(let d): return ("date-local", date(d))
        case .time(let t): return ("time-local", time(t))
        case .dateTime(let dt):
            guard let offset = dt.offsetMinutes else { return ("datetime-local", date(dt.date) + "T" + time(dt.time)) }
            let zone = offset == 0 ? "Z" : (offset < 0 ? "-" : "+") + pad(abs(offset) / 60, 2) + ":" + pad(abs(offset) % 60, 2)
            return ("datetime", date(dt.date) + "T" + time(dt.time) + zone)
        case .array, .table: return ("", "")
        }
    }

    /// Upper-case `T` and `Z`, a space separator as `T`, `+00:00` as `Z`, and the fraction of
    /// the second without trailing zeros.
    static func normalDateTime(_ text: String) -> String {
        var result = text.uppercased()
        if result.count > 10, result[result.index(result.startIndex, offsetBy: 10)] == " " {
            result.replaceSubrange(result.index(result.startIndex, offsetBy: 10)...result.index(result.startIndex, offsetBy: 10), with: "T")
        }
        if result.hasSuffix("+00:00") || result.hasSuffix("-00:00") { result = String(result.dropLast(6)) + "Z" }
        guard let dot = result.firstIndex(of: ".") else { return result }
        var end = result.index(after: dot)
        while end < result.endIndex, result[end].isNumber { end = result.index(after: end) }
        var fraction = String(result[result.index(after: dot)..<end])
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return String(result[..<dot]) + (fraction.isEmpty ? "" : "." + fraction) + String(result[end...])
    }
}
