import FoundationEssentials
import PriceWatchCore
import PriceWatchTOML

/// Reads one trading-calendar file (`calendars/XNYS.toml`, `calendars.d/XNYS.toml`) into a
/// `CalendarFile`, with a positioned diagnostic for every problem; `docs/markets.md` describes
/// the format.
public enum CalendarFileReader {
    /// The file, or nil when it has errors (all of them are in the diagnostics).
    public static func read(text: String, path: String) -> (file: CalendarFile?, diagnostics: [Diagnostic]) {
        var reader = Reader(path: path)
        let parsed = TOMLParser.parse(text)
        if let error = parsed.error {
            return (nil, [.error(error.message, path: path, line: error.position.line, column: error.position.column)])
        }
        let file = reader.file(parsed.partialRoot)
        return (reader.diagnostics.containsErrors ? nil : file, reader.diagnostics)
    }

    private struct Reader {
        let path: String
        var diagnostics: [Diagnostic] = []

        init(path: String) { self.path = path }

        mutating func error(_ message: String, at position: TOMLPosition?) {
            diagnostics.append(.error(message, path: path, line: position?.line, column: position?.column))
        }

        static let rootKeys: Set<String> = ["market", "name", "aliases", "time_zone", "trading_days", "replace",
                                             "lists_through", "hours", "holiday", "early_close", "late_open"]

        mutating func file(_ root: TOMLTable) -> CalendarFile? {
            for entry in root.entries where !Self.rootKeys.contains(entry.key) {
                error("unknown key '\(entry.key)' (expected one of \(Self.rootKeys.sorted().joined(separator: ", ")))", at: entry.keyPosition)
            }
            guard let code = string(root, "market") else {
                if root.entry("market") == nil { error("missing key 'market' (the market's code, such as \"XNYS\")", at: nil) }
                return nil
            }
            guard Self.isMarketCode(code) else {
                error("market: expected a code of at most \(Self.maximumCodeLength) letters, digits, '/', '-' or '_' (such as \"XNYS\" or \"24/7\"), found \(ControlCharacters.shown(code))",
                      at: root.entry("market")?.keyPosition)
                return nil
            }
            let market = MarketIdentifier(code)
            var file = CalendarFile(path: path, market: market, replaces: false, aliases: [], hours: [], holidays: [],
                                    earlyCloses: [], lateOpens: [])
            file.name = string(root, "name")
            if let zone = string(root, "time_zone") {
                if Self.isZoneName(zone), TimeZone(identifier: zone) != nil {
                    file.timeZoneIdentifier = zone
                } else {
                    error("time_zone: expected an IANA zone such as \"America/New_York\", found \(ControlCharacters.shown(zone))",
                          at: root.entry("time_zone")?.keyPosition)
                }
            }
            file.replaces = bool(root, "replace") ?? false
            file.listsThrough = integer(root, "lists_through", in: 1900...2200)
            let aliases = strings(root, "aliases") ?? []
            for alias in aliases where !Self.isMarketCode(alias) {
                error("aliases: expected codes of at most \(Self.maximumCodeLength) letters, digits, '/', '-' or '_', found \(ControlCharacters.shown(alias))",
                      at: root.entry("aliases")?.keyPosition)
            }
            file.aliases = aliases.filter(Self.isMarketCode).map(MarketIdentifier.init(rawValue:))
            if let days = strings(root, "trading_days") {
                var set = Set<Weekday>()
                for day in days {
                    if let weekday = Weekday(name: day) { set.insert(weekday) } else {
                        error("trading_days: expected days such as \"mon\", found \"\(day)\"", at: root.entry("trading_days")?.keyPosition)
                    }
                }
                file.tradingDays = set
            }
            for (table, position) in tables(root, "hours") {
                if let hours = hours(table, position) { file.hours.append(hours) }
            }
            for (table, position) in tables(root, "holiday") {
                if let entry = entry(table, position, kind: "holiday", timeKey: nil) { file.holidays.append(entry) }
            }
            for (table, position) in tables(root, "early_close") {
                if let entry = entry(table, position, kind: "early_close", timeKey: "close") { file.earlyCloses.append(entry) }
            }
            for (table, position) in tables(root, "late_open") {
                if let entry = entry(table, position, kind: "late_open", timeKey: "open") { file.lateOpens.append(entry) }
            }
            return file
        }

        /// The longest market code or alias.
        static let maximumCodeLength = 16
        /// The longest zone name (IANA names have at most about 30 characters).
        static let maximumZoneLength = 64

        /// A market code: ASCII letters, digits, `/`, `-` and `_`, as MIC codes and `24/7` are.
        static func isMarketCode(_ code: String) -> Bool {
            !code.isEmpty && code.utf8.count <= maximumCodeLength && code.utf8.allSatisfy { byte in
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                    || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
        }

        /// The form of an IANA zone name (`America/Argentina/Buenos_Aires`, `Etc/GMT+5`): parts of
        /// letters, digits, `_`, `-` and `+` between single slashes, none `.` or `..`, so that
        /// looking it up can never name a file outside the zone database.
        static func isZoneName(_ name: String) -> Bool {
            guard !name.isEmpty, name.utf8.count <= maximumZoneLength else { return false }
            return name.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { part in
                !part.isEmpty && part.utf8.allSatisfy { byte in
                    (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                }
            }
        }

        // MARK: - Tables

        mutating func tables(_ root: TOMLTable, _ key: String) -> [(TOMLTable, TOMLPosition)] {
            guard let entry = root.entry(key) else { return [] }
            guard case .array(let array) = entry.value else {
                error("\(key): expected an array of tables ([[\(key)]]), found \(describe(entry.value))", at: entry.keyPosition)
                return []
            }
            var result: [(TOMLTable, TOMLPosition)] = []
            for (value, position) in zip(array.elements, array.positions) {
                guard case .table(let table) = value else {
                    error("\(key): expected tables ([[\(key)]]), found \(describe(value))", at: position)
                    continue
                }
                result.append((table, position))
            }
            return result
        }

        mutating func hours(_ table: TOMLTable, _ position: TOMLPosition) -> TradingCalendar.Hours? {
            let known: Set<String> = ["from", "open", "close", "break_start", "break_end", "open_previous_day"]
            unknownKeys(table, known, in: "[[hours]]")
            let from = date(table, "from", in: "[[hours]]")
            let open = time(table, "open", in: "[[hours]]"), close = time(table, "close", in: "[[hours]]")
            let breakStart = time(table, "break_start", in: "[[hours]]"), breakEnd = time(table, "break_end", in: "[[hours]]")
            guard let open, let close else {
                if table.entry("open") == nil || table.entry("close") == nil {
                    error("[[hours]]: expected keys 'open' and 'close' (\"HH:MM\")", at: position)
                }
                return nil
            }
            if (breakStart == nil) != (breakEnd == nil) {
                error("[[hours]]: 'break_start' and 'break_end' go together", at: position)
                return nil
            }
            if let breakStart, let breakEnd, !(open < breakStart && breakStart < breakEnd && breakEnd < close) {
                error("[[hours]]: expected open < break_start < break_end < close, found \(open), \(breakStart), \(breakEnd), \(close)", at: position)
                return nil
            }
            let previousDay = bool(table, "open_previous_day", in: "[[hours]]") ?? false
            if !previousDay, close <= open {
                error("[[hours]]: expected the close after the open, found open \(open) and close \(close) (set open_previous_day = true for a session that opens the day before)", at: position)
                return nil
            }
            return TradingCalendar.Hours(from: from, open: open, close: close, breakStart: breakStart, breakEnd: breakEnd,
                                         opensPreviousDay: previousDay)
        }

        static let entryKeys: Set<String> = ["name", "date", "dates", "month", "day", "weekday", "nth", "easter",
                                              "offset", "observe", "only_on", "since", "until", "except"]

        mutating func entry(_ table: TOMLTable, _ position: TOMLPosition, kind: String, timeKey: String?) -> TradingCalendar.Entry? {
            var known = Self.entryKeys
            if let timeKey { known.insert(timeKey) }
            let label = "[[\(kind)]]"
            unknownKeys(table, known, in: label)
            let name = string(table, "name", in: label)
            guard let name else {
                if table.entry("name") == nil { error("\(label): missing key 'name' (what the day is)", at: position) }
                return nil
            }
            let subject = "\(kind) '\(name)'"
            var time: LocalTime?
            if let timeKey {
                time = self.time(table, timeKey, in: subject)
                if time == nil, table.entry(timeKey) == nil {
                    error("\(subject): missing key '\(timeKey)' (\"HH:MM\")", at: position)
                    return nil
                }
                if time == nil { return nil }
            }
            guard let basis = basis(table, position, subject: subject) else { return nil }
            var rule = CalendarDateRule(basis)
            rule.offsetDays = integer(table, "offset", in: -366...366, subject: subject) ?? 0
            if let observe = string(table, "observe", in: subject) {
                guard let observance = CalendarDateRule.Observance(rawValue: observe) else {
                    error("\(subject): observe: expected one of \(CalendarDateRule.Observance.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(observe)\"",
                          at: table.entry("observe")?.keyPosition)
                    return nil
                }
                rule.observance = observance
            }
            if let days = strings(table, "only_on", subject: subject) {
                var set = Set<Weekday>()
                for day in days {
                    guard let weekday = Weekday(name: day) else {
                        error("\(subject): only_on: expected days such as \"mon\", found \"\(day)\"", at: table.entry("only_on")?.keyPosition)
                        return nil
                    }
                    set.insert(weekday)
                }
                rule.onlyOn = set
            }
            rule.since = integer(table, "since", in: 1900...2200, subject: subject)
            rule.until = integer(table, "until", in: 1900...2200, subject: subject)
            rule.exceptYears = Set(integers(table, "except", subject: subject) ?? [])
            return TradingCalendar.Entry(name: name, rule: rule, time: time)
        }

        mutating func basis(_ table: TOMLTable, _ position: TOMLPosition, subject: String) -> CalendarDateRule.Basis? {
            let hasDates = table.entry("date") != nil || table.entry("dates") != nil
            let hasEaster = table.entry("easter") != nil
            let hasMonth = table.entry("month") != nil
            guard [hasDates, hasEaster, hasMonth].filter({ $0 }).count == 1 else {
                error("\(subject): expected exactly one of 'date' / 'dates', 'easter', or 'month' (with 'day' and/or 'weekday')", at: position)
                return nil
            }
            if hasDates {
                var dates: [CivilDate] = []
                if let one = date(table, "date", in: subject) { dates.append(one) }
                if let entry = table.entry("dates") {
                    guard case .array(let array) = entry.value else {
                        error("\(subject): dates: expected an array of dates, found \(describe(entry.value))", at: entry.keyPosition)
                        return nil
                    }
                    for (value, elementPosition) in zip(array.elements, array.positions) {
                        guard let date = civilDate(value) else {
                            error("\(subject): dates: expected a date such as 2018-12-05, found \(describe(value))", at: elementPosition)
                            return nil
                        }
                        dates.append(date)
                    }
                }
                return diagnostics.containsErrors && dates.isEmpty ? nil : .dates(dates)
            }
            if hasEaster {
                guard let offset = integer(table, "easter", in: -100...100, subject: subject) else { return nil }
                return .easter(offset: offset)
            }
            guard let month = integer(table, "month", in: 1...12, subject: subject) else { return nil }
            let day = integer(table, "day", in: 1...31, subject: subject)
            let nth = integer(table, "nth", in: -1...5, subject: subject)
            var weekday: Weekday?
            if let text = string(table, "weekday", in: subject) {
                guard let value = Weekday(name: text) else {
                    error("\(subject): weekday: expected a day such as \"mon\", found \"\(text)\"", at: table.entry("weekday")?.keyPosition)
                    return nil
                }
                weekday = value
            }
            switch (day, weekday, nth) {
            case (let day?, nil, nil): return .fixed(month: month, day: day)
            case (nil, let weekday?, let nth?) where nth != 0: return .nthWeekday(month: month, weekday: weekday, nth: nth)
            case (let day?, let weekday?, nil): return .weekdayOnOrAfter(month: month, day: day, weekday: weekday)
            default:
                error("\(subject): expected 'month' with 'day', with 'weekday' and 'nth' (1 to 5, or -1 for the last), or with 'day' and 'weekday' (the first such weekday on or after the day)", at: position)
                return nil
            }
        }

        // MARK: - Values

        mutating func unknownKeys(_ table: TOMLTable, _ known: Set<String>, in subject: String) {
            for entry in table.entries where !known.contains(entry.key) {
                error("\(subject): unknown key '\(entry.key)' (expected one of \(known.sorted().joined(separator: ", ")))", at: entry.keyPosition)
            }
        }

        func describe(_ value: TOMLValue) -> String {
            switch value {
            case .string(let text): "the string \"\(text)\""
            case .integer(let number): "the integer \(number)"
            case .float(let number): "the number \(number.literal)"
            case .boolean(let flag): "\(flag)"
            case .dateTime: "a date-time"
            case .date: "a date"
            case .time: "a time"
            case .array: "an array"
            case .table: "a table"
            }
        }

        mutating func string(_ table: TOMLTable, _ key: String, in subject: String? = nil) -> String? {
            guard let entry = table.entry(key) else { return nil }
            guard case .string(let text) = entry.value, !text.isEmpty else {
                error("\(subject.map { "\($0): " } ?? "")\(key): expected a non-empty string, found \(describe(entry.value))", at: entry.keyPosition)
                return nil
            }
            return text
        }

        mutating func strings(_ table: TOMLTable, _ key: String, subject: String? = nil) -> [String]? {
            guard let entry = table.entry(key) else { return nil }
            guard case .array(let array) = entry.value else {
                error("\(subject.map { "\($0): " } ?? "")\(key): expected an array of strings, found \(describe(entry.value))", at: entry.keyPosition)
                return nil
            }
            var result: [String] = []
            for (value, position) in zip(array.elements, array.positions) {
                guard case .string(let text) = value else {
                    error("\(subject.map { "\($0): " } ?? "")\(key): expected strings, found \(describe(value))", at: position)
                    return nil
                }
                result.append(text)
            }
            return result
        }

        mutating func bool(_ table: TOMLTable, _ key: String, in subject: String? = nil) -> Bool? {
            guard let entry = table.entry(key) else { return nil }
            guard case .boolean(let flag) = entry.value else {
                error("\(subject.map { "\($0): " } ?? "")\(key): expected true or false, found \(describe(entry.value))", at: entry.keyPosition)
                return nil
            }
            return flag
        }

        mutating func integer(_ table: TOMLTable, _ key: String, in range: ClosedRange<Int>, subject: String? = nil) -> Int? {
            guard let entry = table.entry(key) else { return nil }
            guard case .integer(let number) = entry.value, range.contains(number) else {
                error("\(subject.map { "\($0): " } ?? "")\(key): expected an integer from \(range.lowerBound) to \(range.upperBound), found \(describe(entry.value))", at: entry.keyPosition)
                return nil
            }
            return number
        }

        mutating func integers(_ table: TOMLTable, _ key: String, subject: String) -> [Int]? {
            guard let entry = table.entry(key) else { return nil }
            guard case .array(let array) = entry.value else {
                error("\(subject): \(key): expected an array of years, found \(describe(entry.value))", at: entry.keyPosition)
                return nil
            }
            var result: [Int] = []
            for (value, position) in zip(array.elements, array.positions) {
                guard case .integer(let number) = value else {
                    error("\(subject): \(key): expected years, found \(describe(value))", at: position)
                    return nil
                }
                result.append(number)
            }
            return result
        }

        mutating func time(_ table: TOMLTable, _ key: String, in subject: String) -> LocalTime? {
            guard let entry = table.entry(key) else { return nil }
            switch entry.value {
            case .string(let text):
                if let time = LocalTime(parsing: text) { return time }
            case .time(let time) where time.second == 0 && time.nanosecond == 0:
                if let value = LocalTime(hour: time.hour, minute: time.minute) { return value }
            default:
                break
            }
            error("\(subject): \(key): expected a time \"HH:MM\" (00:00 to 24:00), found \(describe(entry.value))", at: entry.keyPosition)
            return nil
        }

        func civilDate(_ value: TOMLValue) -> CivilDate? {
            switch value {
            case .date(let date): CivilDate(year: date.year, month: date.month, day: date.day)
            case .string(let text): CivilDate(parsing: text)
            default: nil
            }
        }

        mutating func date(_ table: TOMLTable, _ key: String, in subject: String) -> CivilDate? {
            guard let entry = table.entry(key) else { return nil }
            guard let date = civilDate(entry.value) else {
                error("\(subject): \(key): expected a date such as 2018-12-05, found \(describe(entry.value))", at: entry.keyPosition)
                return nil
            }
            return date
        }
    }
}
