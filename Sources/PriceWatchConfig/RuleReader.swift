import PriceWatchCore
import PriceWatchTOML

/// Reads the `[[rule]]` tables of one rule file (`docs/rules.md`, "Rules"), reporting every
/// problem of every rule to the file.
enum RuleReader {
    /// The keys of a `[[rule]]` table.
    static let keys = RuleKey.allCases.map(\.name)

    /// The conditions a portfolio rule may use: levels and crossings of its figure.
    static let portfolioConditionKeys: [RuleKey] = [.above, .below, .crosses]

    /// Reads the rules of `file` in file order, handing each to `body` as it is read (none when
    /// the file could not be parsed); returns how many `[[rule]]` tables there were.
    ///
    /// One draft at a time: a file's drafts are never all held at once.
    @discardableResult
    static func read(_ file: ConfigFile, _ body: (consuming RuleDraft) -> Void) -> Int {
        guard let root = file.root else { return 0 }
        let reader = TableReader(file: file, path: .root, values: root, subject: .root)
        reader.checkUnknownKeys(allowed: ["rule"])
        guard let value = root["rule"] else { return 0 }
        guard case .array(let array) = value else {
            reader.error("expected an array of tables ([[rule]]), found \(value.kindDescription)", key: "rule")
            return 0
        }
        let rules = TOMLKeyPath(keys: "rule")
        for (index, element) in array.elements.enumerated() {
            guard case .table(let values) = element else {
                file.error("rule #\(index + 1): expected a table, found \(element.kindDescription)", at: rules.appending(index: index))
                continue
            }
            body(readRule(values, at: rules.appending(index: index), number: index + 1, in: file))
        }
        return array.count
    }

    /// How many `[[rule]]` tables `file` has (0 when it could not be parsed).
    static func tableCount(of file: ConfigFile) -> Int {
        guard case .array(let array)? = file.root?["rule"] else { return 0 }
        return array.count
    }

    private static func readRule(_ values: TOMLTable, at path: TOMLKeyPath, number: Int,
                                 in file: ConfigFile) -> RuleDraft {
        let idEntry = values.entry("id")
        let writtenID: String? = if case .string(let text)? = idEntry?.value, !text.isEmpty { text } else { nil }
        let errors = file.errorCount
        let reader = RuleTableReader(TableReader(file: file, path: path, values: values,
                                                 subject: .element(kind: "rule", number: number, id: writtenID)))

        if reader.has(.event) {
            return EventRuleReader.read(reader, id: writtenID, idPosition: idEntry?.keyPosition, errorsBefore: errors)
        }
        for key in [RuleKey.before, .match] where reader.has(key) {
            reader.tableError("'\(key.name)' applies only to event rules (with 'event', see docs/events.md)", at: key)
        }
        let id = readID(reader)
        let isPortfolioRule = reader.has(.portfolio)
        let target = isPortfolioRule ? readPortfolioTarget(reader) : nil
        if !isPortfolioRule {
            for key in [RuleKey.measure, .position] where reader.has(key) {
                reader.tableError("'\(key.name)' applies only to portfolio rules (with 'portfolio = \"NAME\"')", at: key)
            }
        }
        let symbols = isPortfolioRule ? target.map { [$0.subject] } : readSymbols(reader)
        let provider = reader.nonEmptyString(.provider, expected: "a provider name")

        // The condition: exactly one of its keys; every written condition value is checked.
        let conditionKeys = reader.conditionKeys
        if conditionKeys.isEmpty {
            reader.missing("missing a condition; expected one of " + Wording.quotedList(Condition.keys, conjunction: "or"),
                           keys: RuleKeys.conditions.keys)
        } else if conditionKeys.count > 1 {
            reader.tableError("expected exactly one condition, found \(Wording.quotedList(conditionKeys.map(\.name)))",
                              at: conditionKeys[1])
        }
        var condition: Condition?
        // Technical rules: a level may be a series (`above = "sma(200)"`).
        var levelSeries: SeriesSpec?
        let isTechnical = RuleKey.technical.contains(where: reader.has)
            || conditionKeys.contains { if case .string(let text)? = reader[$0] { Self.namesSeries(text) } else { false } }
        if isPortfolioRule, let key = conditionKeys.first(where: { !Self.portfolioConditionKeys.contains($0) }) {
            reader.tableError("a portfolio rule compares its measure with a level: expected "
                              + Wording.quotedList(Self.portfolioConditionKeys.map(\.name), conjunction: "or")
                              + ", found '\(key.name)' (for a day's move, use measure = \"day_change_percent\")", at: key)
        }
        for key in conditionKeys {
            // A number in quotes ("200", "5%") gets the number's message from `decimal`.
            if case .string(let text)? = reader[key], !isPortfolioRule, Self.namesSeries(text) {
                guard !key.isPercentCondition else {
                    reader.error("'\(key.name)' is a percent and takes a number, found the series \(Wording.quoted(text)); "
                                 + "to test a series' percent change, write of = \(Wording.quoted(text)) and \(key.name) = 2", key: key)
                    continue
                }
                do {
                    levelSeries = try SeriesSpec(parsing: text)
                    if conditionKeys.count == 1 { condition = Condition(key: key.name, value: .zero) }
                } catch {
                    reader.error(error.description, key: key)
                }
                continue
            }
            guard let value = reader.decimal(key) else { continue }
            if isPortfolioRule {
                if let measure = target?.measure, !measure.allowsNonPositiveLevel, !value.isPositive {
                    reader.error("expected a level greater than 0 for measure '\(measure.rawValue)', found \(value)", key: key)
                    continue
                }
                if conditionKeys.count == 1 { condition = Condition(key: key.name, value: value) }
                continue
            }
            // A technical rule's level may be any number: an oscillator's (MACD) is often 0 or below.
            guard value.isPositive || (isTechnical && !key.isPercentCondition) else {
                reader.error("expected a \(key.isPercentCondition ? "percent" : "price") greater than 0, found \(value)", key: key)
                continue
            }
            if key == .fall && value >= .hundred {
                reader.file.warning("\(reader.table.name(key.name)): a price cannot fall by \(value)%, so this rule never fires",
                                    at: path.appending(key.name))
            }
            if conditionKeys.count == 1 { condition = Condition(key: key.name, value: value) }
        }
        let conditionKey = conditionKeys.count == 1 ? conditionKeys.first : nil
        let isPercent = conditionKey.map(\.isPercentCondition)

        let baseline = readBaseline(reader, conditionKey: conditionKey, isPercent: isPercent)
        let series = isTechnical && !isPortfolioRule
            ? readSeriesCondition(reader, level: levelSeries, conditionKey: conditionKey, baseline: baseline) : nil
        if isPortfolioRule {
            for key in RuleKey.technical where reader.has(key) {
                reader.tableError("'\(key.name)' does not apply to a portfolio rule (it compares a portfolio's figure, not a series)", at: key)
            }
        }
        let rearm = readRearm(reader, conditionKey: conditionKey, isPercent: isPercent, condition: condition)
        let cooldown = reader.duration(.cooldown)
        let once = reader.bool(.once)
        let expires = readExpires(reader)
        let enabled = reader.bool(.enabled)
        let notify = reader.nameList(.notify, kind: "sink")
        var message: MessageTemplate?
        if let text = reader.nonEmptyString(.message, expected: "a message template") {
            do {
                message = try MessageTemplate(parsing: text)
            } catch {
                reader.error(error.description, key: .message)
            }
        }

        if isPortfolioRule {
            for key in [RuleKey.from, .market, .session, .symbol, .symbols] where reader.has(key) {
                reader.tableError("'\(key.name)' does not apply to a portfolio rule (it watches portfolio "
                                  + "'\(target?.portfolio ?? "")', valued from its holdings' prices)", at: key)
            }
        }
        let market = readMarket(reader)
        let session = readSession(reader)
        let urgent = reader.bool(.urgent)

        var rule: Rule?
        if file.errorCount == errors, let id, let symbols, let condition, series != nil || !isTechnical || isPortfolioRule {
            rule = Rule(id: id, symbols: symbols, provider: provider, condition: condition,
                        baseline: baseline ?? .previousClose, rearm: rearm ?? .zero, cooldown: cooldown,
                        once: once ?? false, expires: expires, enabled: enabled ?? true, notify: notify ?? [],
                        message: message, market: market, session: session ?? .always)
            if let urgent { rule?.urgent = urgent }
            if let series { rule?.series = series }
            if let target { rule?.portfolio = target }
        }
        return RuleDraft(reader: reader.table, id: writtenID, idPosition: idEntry?.keyPosition, provider: provider,
                         notify: notify, rule: rule)
    }

    /// Whether a condition's string value names a series (it starts with a letter) rather
    /// than being a number written in quotes.
    static func namesSeries(_ text: String) -> Bool {
        text.unicodeScalars.first.map { $0.properties.isAlphabetic } ?? false
    }

    /// `timeframe`, `of` and `trigger`, with the condition's series level: what makes a rule
    /// technical. Nil after reporting what is wrong.
    private static func readSeriesCondition(_ reader: RuleTableReader, level: SeriesSpec?, conditionKey: RuleKey?,
                                            baseline: Baseline?) -> SeriesCondition? {
        var of = SeriesSpec.price
        var valid = true
        if let text = reader.nonEmptyString(.of, expected: "a series such as \"sma(50)\"") {
            do { of = try SeriesSpec(parsing: text) } catch {
                reader.error(error.description, key: .of)
                valid = false
            }
        } else if reader.has(.of) {
            valid = false
        }
        var trigger = BarTrigger.close
        if let text = reader.nonEmptyString(.trigger, expected: "\"close\" or \"tick\"") {
            if let value = BarTrigger(rawValue: text) { trigger = value } else {
                reader.error("expected \"close\" (once per bar, when it closes) or \"tick\" (every quote, against the "
                             + "forming bar), found \(Wording.quoted(text))", key: .trigger)
                valid = false
            }
        }
        let named = [reader.has(.of) ? "'of'" : nil, level != nil ? "a series level" : nil,
                     reader.has(.trigger) ? "'trigger'" : nil].compactMap { $0 }
        guard reader.has(.timeframe) else {
            reader.missing("missing 'timeframe': a rule with \(named.joined(separator: " and ")) is evaluated on bars; "
                           + "expected one of " + Wording.quotedList(Timeframe.names, conjunction: "or"), keys: [.timeframe])
            return nil
        }
        guard let text = reader.nonEmptyString(.timeframe, expected: "a timeframe such as \"1d\"") else { return nil }
        guard let timeframe = Timeframe(text) else {
            var message = "expected one of " + Wording.quotedList(Timeframe.names, conjunction: "or") + ", found \(Wording.quoted(text))"
            if let suggestion = Suggestion.closest(to: text, among: Timeframe.names) { message += "; did you mean '\(suggestion)'?" }
            reader.error(message, key: .timeframe)
            return nil
        }
        if let conditionKey, conditionKey.isPercentCondition {
            switch baseline {
            case .sessionOpen?:
                reader.error("a technical rule compares its series with its value 'from' a duration ago, or the price "
                             + "with the previous close; \"open\" does not apply", key: .from)
                valid = false
            case .previousClose?, nil:
                if of != .price {
                    reader.tableError("'\(conditionKey.name)' of \(of) needs 'from' as a duration such as \"5d\" (its value "
                                      + "that long ago); the previous close is a price's base", at: reader.has(.from) ? .from : conditionKey)
                    valid = false
                }
            case .window?:
                break
            }
        }
        guard valid else { return nil }
        let condition = SeriesCondition(timeframe: timeframe, of: of, level: level, trigger: trigger)
        return condition
    }

    /// `portfolio = "NAME"`, `measure` and, for the position measures, `position`. Whether the
    /// portfolio exists is checked across files, by the loader.
    private static func readPortfolioTarget(_ reader: RuleTableReader) -> PortfolioTarget? {
        let name = reader.nonEmptyString(.portfolio, expected: "a portfolio name (its file in portfolios.d without .toml)")
        let measures = PortfolioTarget.Measure.allCases.map(\.rawValue)
        var measure: PortfolioTarget.Measure?
        if reader.require(.measure, "; a portfolio rule needs one of " + Wording.quotedList(measures, conjunction: "or")),
           let text = reader.nonEmptyString(.measure, expected: "a measure") {
            measure = PortfolioTarget.Measure(rawValue: text)
            if measure == nil {
                var message = "expected " + Wording.quotedList(measures, conjunction: "or") + ", found \(Wording.quoted(text))"
                if let suggestion = Suggestion.closest(to: text, among: measures) { message += "; did you mean '\(suggestion)'?" }
                reader.error(message, key: .measure)
            }
        }
        var position: String?
        if let measure, measure.needsPosition {
            if reader.require(.position, "; measure '\(measure.rawValue)' needs the symbol of a position"),
               let symbol = reader.nonEmptyString(.position, expected: "a symbol") {
                if let problem = symbolProblem(symbol) { reader.error(problem, key: .position) } else { position = symbol }
            }
            if position == nil { return nil }
        } else if let measure, reader.has(.position) {
            reader.tableError("'position' applies only to measures 'position_profit_percent' and 'position_weight', "
                              + "not to '\(measure.rawValue)'", at: .position)
        }
        guard let name, let measure else { return nil }
        return PortfolioTarget(portfolio: name, measure: measure, position: position)
    }

    /// `session = "always" | "regular" | "extended"`.
    private static func readSession(_ reader: RuleTableReader) -> RuleSession? {
        guard let text = reader.nonEmptyString(.session, expected: "\"always\", \"regular\" or \"extended\"") else { return nil }
        guard let session = RuleSession(rawValue: text) else {
            reader.error("expected \"always\", \"regular\" or \"extended\", found \(Wording.quoted(text))", key: .session)
            return nil
        }
        return session
    }

    static let marketCodeExpected = "expected a market code such as \"XNYS\", \"XLON\" or \"24/7\" (2 to 12 letters, digits or '/')"

    /// Whether `code` is written as a market code: letters and digits (and `/` for `24/5`, `24/7`).
    static func isMarketCode(_ code: String) -> Bool {
        (2...12).contains(code.utf8.count)
            && code.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == UInt8(ascii: "/") }
    }

    /// `market = "XNYS"`: a market code, letters and digits (and `/` for `24/5`, `24/7`).
    private static func readMarket(_ reader: RuleTableReader) -> MarketIdentifier? {
        guard let code = reader.nonEmptyString(.market, expected: "a market code") else { return nil }
        guard isMarketCode(code) else {
            reader.error(marketCodeExpected + ", found \(Wording.quoted(code))", key: .market)
            return nil
        }
        return MarketIdentifier(code)
    }

    static func readID(_ reader: RuleTableReader) -> String? {
        guard reader.require(.id), let id = reader.nonEmptyString(.id, expected: "a rule id") else { return nil }
        guard Wording.isIdentifier(id) else {
            reader.error("expected lowercase letters, digits, '_', '.' or '-', starting with a letter or digit "
                         + "([a-z0-9][a-z0-9_.-]*), found \(Wording.quoted(id))", key: .id)
            return nil
        }
        return id
    }

    static func readSymbols(_ reader: RuleTableReader) -> [String]? {
        switch (reader.has(.symbol), reader.has(.symbols)) {
        case (true, true):
            reader.tableError("'symbol' and 'symbols' are both given; use one of them", at: .symbols)
            _ = reader.string(.symbol, expected: "a symbol")
            _ = reader.stringArray(.symbols, expected: "an array of symbols")
            return nil
        case (false, false):
            reader.missing("missing required key 'symbol' or 'symbols'", keys: [.symbol, .symbols])
            return nil
        case (true, false):
            guard let symbol = reader.string(.symbol, expected: "a symbol") else { return nil }
            if let problem = symbolProblem(symbol) {
                reader.error(problem, key: .symbol)
                return nil
            }
            return [symbol]
        case (false, true):
            guard let symbols = reader.stringArray(.symbols, expected: "an array of symbols") else { return nil }
            guard !symbols.isEmpty else {
                reader.error("expected at least one symbol, found an empty array", key: .symbols)
                return nil
            }
            var valid = true
            var seen: Set<String> = []
            for (index, symbol) in symbols.enumerated() {
                let elementPath = reader.path.appending("symbols").appending(index: index)
                if let problem = symbolProblem(symbol) {
                    reader.error(problem, key: .symbols, at: elementPath)
                    valid = false
                } else if !seen.insert(symbol).inserted {
                    reader.error("symbol '\(symbol)' is listed twice", key: .symbols, at: elementPath)
                    valid = false
                }
            }
            return valid ? symbols : nil
        }
    }

    static func symbolProblem(_ symbol: String) -> String? {
        if symbol.isEmpty { return "expected a symbol such as \"AAPL\", found an empty string" }
        // Nearly every symbol is printable ASCII, which holds no whitespace: checked by byte,
        // without looking up Unicode properties.
        if symbol.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) { return nil }
        if symbol.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }) {
            return "expected a symbol without whitespace, found \(Wording.quoted(symbol))"
        }
        return nil
    }

    /// `from`: only for percent conditions; `"previous_close"` or a duration.
    private static func readBaseline(_ reader: RuleTableReader, conditionKey: RuleKey?, isPercent: Bool?) -> Baseline? {
        guard let value = reader[.from] else { return nil }
        if isPercent == false, let conditionKey {
            reader.tableError("'from' applies only to 'rise', 'fall' and 'move', not to '\(conditionKey.name)'", at: .from)
            return nil
        }
        let expected = "\"previous_close\", \"open\" or a duration such as \"15m\", \"1h\" or \"30d\""
        guard case .string(let text) = value else {
            reader.error("expected \(expected), found \(value.kindDescription)", key: .from)
            return nil
        }
        if text == "previous_close" { return .previousClose }
        if text == "open" { return .sessionOpen }
        do {
            return .window(try RuleDuration(parsing: text))
        } catch {
            var reason = error.description
            if reason.hasPrefix("expected ") { reason.removeFirst("expected ".count) }
            reader.error("expected \"previous_close\", \"open\" or \(reason)", key: .from)
            return nil
        }
    }

    /// `rearm`: at least 0; not with `crosses`; below the percent, or below 100 for prices.
    private static func readRearm(_ reader: RuleTableReader, conditionKey: RuleKey?, isPercent: Bool?,
                                  condition: Condition?) -> ExactDecimal? {
        guard reader.has(.rearm) else { return nil }
        if conditionKey == .crosses {
            reader.tableError("'rearm' does not apply to 'crosses' (every crossing fires)", at: .rearm)
            return nil
        }
        guard let rearm = reader.decimal(.rearm) else { return nil }
        guard rearm >= .zero else {
            reader.error("expected a number of at least 0, found \(rearm)", key: .rearm)
            return nil
        }
        if let condition, isPercent == true, rearm >= condition.value {
            reader.tableError("'rearm' must be smaller than '\(condition.key)' (\(condition.value)), got \(rearm)",
                              at: .rearm)
            return nil
        }
        if isPercent == false, rearm >= .hundred {
            reader.tableError("'rearm' must be smaller than 100 (it is a percent of the price), got \(rearm)", at: .rearm)
            return nil
        }
        return rearm
    }

    /// `expires`: an offset date-time, or a date (midnight UTC).
    private static func readExpires(_ reader: RuleTableReader) -> Timestamp? {
        guard let value = reader[.expires] else { return nil }
        switch value {
        case .dateTime(let dateTime):
            guard let offset = dateTime.offsetMinutes else {
                let written = format(dateTime)
                reader.error("expected a date-time with a UTC offset, found the local date-time \(written); "
                             + "add 'Z' for UTC (\(written)Z) or an offset such as '-04:00'", key: .expires)
                return nil
            }
            guard let timestamp = Timestamp(year: dateTime.date.year, month: dateTime.date.month, day: dateTime.date.day,
                                            hour: dateTime.time.hour, minute: dateTime.time.minute,
                                            second: min(dateTime.time.second, 59),
                                            millisecond: dateTime.time.nanosecond / 1_000_000,
                                            offsetMinutes: offset) else {
                reader.error("expected a date-time between the years 1 and 9999, found \(format(dateTime))", key: .expires)
                return nil
            }
            return timestamp
        case .date(let date):
            guard let timestamp = Timestamp(year: date.year, month: date.month, day: date.day) else {
                reader.error("expected a date between the years 1 and 9999", key: .expires)
                return nil
            }
            return timestamp
        case .string:
            reader.error("expected a TOML date-time such as 2027-06-30T00:00:00Z (without quotes), found a string",
                         key: .expires)
            return nil
        default:
            reader.error("expected a date-time such as 2027-06-30T00:00:00Z or a date such as 2027-06-30, "
                         + "found \(value.kindDescription)", key: .expires)
            return nil
        }
    }

    /// `2027-06-30T09:30:00` (with `.5` style fractions when present).
    private static func format(_ dateTime: TOMLDateTime) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let date = dateTime.date, time = dateTime.time
        var text = "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))"
            + "T\(pad(time.hour, 2)):\(pad(time.minute, 2)):\(pad(time.second, 2))"
        if time.nanosecond > 0 {
            var fraction = pad(time.nanosecond, 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text
    }
}
