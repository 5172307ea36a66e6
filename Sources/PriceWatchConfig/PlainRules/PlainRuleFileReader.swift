import PriceWatchCore
import PriceWatchTOML

/// Reads a rule file written the plain way straight from its bytes into finished rules,
/// without building its TOML document: the start-up's fast path (`docs/benchmarks.md`, "The
/// start-up").
///
/// Plain means: only `[[rule]]` headers, comments, blank lines and one-line `key = value`
/// pairs of the common rule keys, with basic strings of printable ASCII without escapes,
/// plain decimal numbers, booleans and one-line arrays of such strings; and every rule valid
/// and finished by ``RuleResolver`` without a word to say. Anything else, from a tab in a
/// string to a rule that would only get a warning, makes it give up on the whole file, and the
/// caller reads the file the general way (``ConfigFile``, ``RuleReader``), which then owns
/// every message. So it never reports anything, and what it returns is exactly what the
/// general way would have made of the file (`PlainRuleFileReaderTests` holds the two side by
/// side, on every rule file of the repository, odd files and seeded mutations).
///
/// Parsing and reading the tables were two thirds of loading 100,000 rules, and so of the
/// start to READY; read this way, a file costs about a third of that.
struct PlainRuleFileReader: Sendable {
    /// What every rule's `provider` and `notify` become.
    let resolution: RuleResolver.QuietResolution

    init(resolver: RuleResolver) {
        resolution = resolver.quietResolution
    }

    /// A file read: its finished rules, in file order, and each one's written `id` with where
    /// it is.
    struct Read {
        let rules: RuleBuffer
        let marks: [DuplicateIDCheck.Mark]
    }

    /// The file's rules, or nil when the file is not plain (see the type's documentation).
    func read(_ bytes: [UInt8]) -> Read? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = PlainRuleScanner(bytes: buffer)
            return scanner.readFile(resolution: resolution)
        }
    }
}

/// The byte-level walk of ``PlainRuleFileReader``: one pass, giving up (nil) at the first
/// thing outside the plain subset.
private struct PlainRuleScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0
    var line = 1
    var lineStart = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private static let header = Array("[[rule]]".utf8)

    mutating func readFile(resolution: RuleResolver.QuietResolution) -> PlainRuleFileReader.Read? {
        let capacity = headerOccurrences()
        guard capacity > 0 else { return nil }
        let rules = RuleBuffer(capacity: capacity)
        var marks: [DuplicateIDCheck.Mark] = []
        marks.reserveCapacity(capacity)
        var fields: PlainRuleFields?
        func finish(_ fields: PlainRuleFields) -> Bool {
            guard rules.count < capacity, let id = fields.id, let rule = fields.rule(resolution: resolution) else { return false }
            marks.append(DuplicateIDCheck.Mark(id: id, position: fields.idPosition))
            rules.append(rule)
            return true
        }
        while offset < bytes.count {
            skipBlanks()
            guard offset < bytes.count else { break }
            switch bytes[offset] {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "#"):
                guard endOfLine() else { return nil }
            case UInt8(ascii: "["):
                guard matches(Self.header) else { return nil }
                if let fields { guard finish(fields) else { return nil } }
                fields = PlainRuleFields()
                offset += Self.header.count
                guard endOfLine() else { return nil }
            default:
                // A key outside any `[[rule]]` is the general reader's to report.
                guard fields != nil, readPair(into: &fields) else { return nil }
            }
        }
        guard let fields, finish(fields) else { return nil }
        return PlainRuleFileReader.Read(rules: rules, marks: marks)
    }

    /// How many times `[[rule]]` occurs anywhere in the file: at least the number of tables.
    private func headerOccurrences() -> Int {
        var count = 0
        let header = Self.header
        var index = 0
        while index < bytes.count {
            if matches(header, at: index) {
                count += 1
                index += header.count
            } else {
                index += 1
            }
        }
        return count
    }

    /// Whether `expected` is written at `start` (at the current offset when not given).
    private func matches(_ expected: [UInt8], at start: Int? = nil) -> Bool {
        let start = start ?? offset
        guard bytes.count - start >= expected.count else { return false }
        for index in expected.indices where bytes[start + index] != expected[index] { return false }
        return true
    }

    private mutating func skipBlanks() {
        while offset < bytes.count, bytes[offset] == UInt8(ascii: " ") || bytes[offset] == UInt8(ascii: "\t") { offset += 1 }
    }

    /// Blanks, an optional comment, then a line break or the end of the file.
    private mutating func endOfLine() -> Bool {
        skipBlanks()
        guard offset < bytes.count else { return true }
        if bytes[offset] == UInt8(ascii: "#") {
            let start = offset + 1
            var nonASCII = false
            while offset < bytes.count, bytes[offset] != UInt8(ascii: "\n"), bytes[offset] != UInt8(ascii: "\r") {
                let byte = bytes[offset]
                // TOML allows no control character but a tab in a comment.
                if (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F { return false }
                if byte >= 0x80 { nonASCII = true }
                offset += 1
            }
            if nonASCII, String(validating: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self) == nil {
                return false
            }
            guard offset < bytes.count else { return true }
        }
        if bytes[offset] == UInt8(ascii: "\r") {
            guard offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "\n") else { return false }
            offset += 1
        }
        guard bytes[offset] == UInt8(ascii: "\n") else { return false }
        offset += 1
        line += 1
        lineStart = offset
        return true
    }

    /// `key = value` and the end of its line, into the current rule's fields.
    private mutating func readPair(into fields: inout PlainRuleFields?) -> Bool {
        let keyStart = offset
        while offset < bytes.count, Self.isBareKeyByte(bytes[offset]) { offset += 1 }
        guard offset > keyStart, let key = RuleKey.named(String(decoding: UnsafeBufferPointer(rebasing: bytes[keyStart..<offset]), as: UTF8.self))
        else { return false }
        // Only blanks before the key on its line, all of them one byte and one column each.
        let position = TOMLPosition(line: line, column: keyStart - lineStart + 1)
        skipBlanks()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "=") else { return false }
        offset += 1
        skipBlanks()
        guard fields?.set(key, at: position, from: &self) == true else { return false }
        return endOfLine()
    }

    private static func isBareKeyByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    /// A basic string of printable ASCII without escapes (`"AAPL"`).
    mutating func string() -> String? {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { return nil }
        let start = offset + 1
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        guard index < bytes.count else { return nil }
        offset = index + 1
        // `""` followed by `"` opens a multi-line string.
        if index == start, offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// `["a", "b"]` on one line: at least one string, an optional trailing comma.
    mutating func stringArray() -> [String]? {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "[") else { return nil }
        offset += 1
        var strings: [String] = []
        while true {
            skipBlanks()
            guard offset < bytes.count else { return nil }
            if bytes[offset] == UInt8(ascii: "]"), !strings.isEmpty { break }
            guard let text = string() else { return nil }
            strings.append(text)
            skipBlanks()
            guard offset < bytes.count else { return nil }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
            } else if bytes[offset] != UInt8(ascii: "]") {
                return nil
            }
        }
        offset += 1
        return strings
    }

    /// `true` or `false`.
    mutating func boolean() -> Bool? {
        let value: Bool
        if matches(Self.trueWord) { value = true } else if matches(Self.falseWord) { value = false } else { return nil }
        offset += value ? Self.trueWord.count : Self.falseWord.count
        return endsValue ? value : nil
    }

    private static let trueWord = Array("true".utf8)
    private static let falseWord = Array("false".utf8)

    /// A decimal written plainly (`150`, `-2`, `0.35`): no `+`, `_`, exponent, leading zero,
    /// `inf` or `nan`; as the general reader takes it, exactly, from its digits.
    mutating func number() -> ExactDecimal? {
        let start = offset
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        let integerStart = offset
        while offset < bytes.count, Self.isDigit(bytes[offset]) { offset += 1 }
        let integerDigits = offset - integerStart
        guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return nil }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            let fractionStart = offset
            while offset < bytes.count, Self.isDigit(bytes[offset]) { offset += 1 }
            guard offset > fractionStart else { return nil }
        }
        guard endsValue else { return nil }
        // An integer or a float literal: either way the value of its digits, and nil out of
        // range, as the general reader's `ExactDecimal(exactly:)` and `ExactDecimal(parsing:)`.
        return try? ExactDecimal.parse(UnsafeBufferPointer(rebasing: bytes[start..<offset])[...])
    }

    /// Whether the value just read ends here: blanks, a comment, a line break or the end.
    private var endsValue: Bool {
        guard offset < bytes.count else { return true }
        let byte = bytes[offset]
        return byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "#")
            || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

/// The keys of one `[[rule]]` read by ``PlainRuleFileReader``, and the rule they make.
private struct PlainRuleFields {
    var written = RuleKeys()
    var id: String?
    var idPosition: TOMLPosition?
    var symbol: String?
    var symbols: [String]?
    var provider: String?
    var condition: Condition?
    var from: String?
    var rearm: ExactDecimal?
    var cooldown: String?
    var once: Bool?
    var enabled: Bool?
    var urgent: Bool?
    var notify: [String]?
    var message: String?
    var market: String?
    var session: String?

    /// Reads the value of `key` from `scanner`; false when the key is not one of the plain
    /// subset, is written twice, or its value is not of the kind it takes.
    mutating func set(_ key: RuleKey, at position: TOMLPosition, from scanner: inout PlainRuleScanner) -> Bool {
        guard !written.contains(key) else { return false }
        written.insert(key)
        switch key {
        case .id:
            id = scanner.string()
            idPosition = position
            return id != nil
        case .symbol: symbol = scanner.string(); return symbol != nil
        case .symbols: symbols = scanner.stringArray(); return symbols != nil
        case .provider: provider = scanner.string(); return provider != nil
        case .above, .below, .rise, .fall, .move, .crosses:
            // Two conditions in one rule: the general reader's to report.
            guard condition == nil, let value = scanner.number() else { return false }
            condition = Condition(key: key.name, value: value)
            return condition != nil
        case .from: from = scanner.string(); return from != nil
        case .rearm: rearm = scanner.number(); return rearm != nil
        case .cooldown: cooldown = scanner.string(); return cooldown != nil
        case .once: once = scanner.boolean(); return once != nil
        case .enabled: enabled = scanner.boolean(); return enabled != nil
        case .urgent: urgent = scanner.boolean(); return urgent != nil
        case .notify: notify = scanner.stringArray(); return notify != nil
        case .message: message = scanner.string(); return message != nil
        case .market: market = scanner.string(); return market != nil
        case .session: session = scanner.string(); return session != nil
        case .expires, .portfolio, .measure, .position, .timeframe, .of, .trigger, .event, .before, .match:
            return false
        }
    }

    /// The finished rule, or nil when the general reader would report anything about it
    /// (``RuleReader``'s checks, in the same order, for the keys read here).
    func rule(resolution: RuleResolver.QuietResolution) -> Rule? {
        guard let id, Wording.isIdentifier(id) else { return nil }
        let symbols: [String]
        switch (symbol, self.symbols) {
        case (let symbol?, nil):
            guard Self.isPlainSymbol(symbol) else { return nil }
            symbols = [symbol]
        case (nil, let list?):
            guard list.allSatisfy(Self.isPlainSymbol), Set(list).count == list.count else { return nil }
            symbols = list
        default:
            return nil
        }
        if let provider, provider.isEmpty { return nil }
        guard let condition, condition.value.isPositive else { return nil }
        // The general reader warns: a fall of 100% or more never happens.
        if case .fall(let percent) = condition, percent >= .hundred { return nil }
        let isPercent = condition.isPercent
        var baseline: Baseline?
        if let from {
            guard isPercent else { return nil }
            switch from {
            case "previous_close": baseline = .previousClose
            case "open": baseline = .sessionOpen
            default:
                guard let duration = try? RuleDuration(parsing: from) else { return nil }
                baseline = .window(duration)
            }
        }
        if let rearm {
            if case .crosses = condition { return nil }
            guard rearm >= .zero else { return nil }
            if isPercent ? rearm >= condition.value : rearm >= .hundred { return nil }
        }
        var cooldownDuration: RuleDuration?
        if let cooldown {
            guard let duration = try? RuleDuration(parsing: cooldown) else { return nil }
            cooldownDuration = duration
        }
        if let notify, Set(notify).count != notify.count { return nil }
        var template: MessageTemplate?
        if let message {
            guard !message.isEmpty, let parsed = try? MessageTemplate(parsing: message) else { return nil }
            template = parsed
        }
        var marketIdentifier: MarketIdentifier?
        if let market {
            guard RuleReader.isMarketCode(market) else { return nil }
            marketIdentifier = MarketIdentifier(market)
        }
        var ruleSession: RuleSession?
        if let session {
            guard let parsed = RuleSession(rawValue: session) else { return nil }
            ruleSession = parsed
        }
        guard let resolved = resolution.resolve(provider: provider, notify: notify, symbols: symbols) else { return nil }
        var rule = Rule(id: id, symbols: symbols, provider: resolved.provider, condition: condition,
                        baseline: baseline ?? .previousClose, rearm: rearm ?? .zero, cooldown: cooldownDuration,
                        once: once ?? false, expires: nil, enabled: enabled ?? true, notify: resolved.notify,
                        message: template, market: marketIdentifier, session: ruleSession ?? .always)
        if let urgent { rule.urgent = urgent }
        return rule
    }

    /// A symbol the general reader takes without a word: not empty, no blank (the scanner's
    /// strings hold printable ASCII only).
    private static func isPlainSymbol(_ symbol: String) -> Bool {
        !symbol.isEmpty && !symbol.utf8.contains(UInt8(ascii: " "))
    }
}
