import FoundationEssentials

extension CalendarSchedule {
    /// The forms ``init(parsing:)`` reads, for error messages.
    public static let syntax = "'hourly [:MM] [ZONE]', 'daily HH:MM [ZONE]' or 'weekly DAY HH:MM [ZONE]'"

    /// Reads a schedule: `hourly`, `hourly :15`, `daily 08:00 Europe/Berlin`,
    /// `weekly mon 07:30 America/New_York`. Words are separated by spaces; keywords and days
    /// (`mon` … `sun`, or `monday` … `sunday`) are case-insensitive; the zone is an IANA name
    /// from the system's tzdata (`UTC` when not given).
    ///
    /// - Throws: ``ScheduleParseError`` naming the column of the first problem.
    public init(parsing text: String) throws(ScheduleParseError) {
        var words = ScheduleWords(text)
        guard let keyword = words.next() else {
            throw ScheduleParseError(column: words.endColumn, message: "expected a schedule (\(Self.syntax)), found nothing")
        }
        let cadence: Cadence
        switch keyword.text.lowercased() {
        case "hourly":
            var minute = 0
            if let word = words.peek(), word.text.hasPrefix(":") {
                _ = words.next()
                guard let value = Self.number(word.text.dropFirst(), in: 0...59), word.text.count == 3 else {
                    throw ScheduleParseError(column: word.column, message: "expected a minute :MM (:00 to :59), found '\(word.text)'")
                }
                minute = value
            }
            cadence = .hourly(minute: minute)
        case "daily":
            let (hour, minute) = try Self.time(words.next(), after: keyword, words: words)
            cadence = .daily(hour: hour, minute: minute)
        case "weekly":
            guard let dayWord = words.next() else {
                throw ScheduleParseError(column: words.endColumn, message: "expected a day (mon to sun) after 'weekly', found the end")
            }
            let name = dayWord.text.lowercased()
            guard let weekday = Weekday.allCases.first(where: { $0.name == name || $0.fullName == name }) else {
                throw ScheduleParseError(column: dayWord.column, message: "expected a day (mon, tue, wed, thu, fri, sat or sun), found '\(dayWord.text)'")
            }
            let (hour, minute) = try Self.time(words.next(), after: dayWord, words: words)
            cadence = .weekly(weekday: weekday, hour: hour, minute: minute)
        default:
            throw ScheduleParseError(column: keyword.column, message: "expected 'hourly', 'daily' or 'weekly', found '\(keyword.text)'")
        }
        var zone = CalendarSchedule.utc
        if let zoneWord = words.next() {
            guard let found = TimeZone(identifier: zoneWord.text) else {
                throw ScheduleParseError(column: zoneWord.column, message: "unknown time zone '\(zoneWord.text)' (expected an IANA name from the system's tzdata, such as Europe/Berlin or America/New_York)")
            }
            zone = found
        }
        if let extra = words.next() {
            throw ScheduleParseError(column: extra.column, message: "expected the end of the schedule after the time zone, found '\(extra.text)'")
        }
        self.init(cadence, timeZone: zone)
    }

    private static func time(_ word: ScheduleWords.Word?, after previous: ScheduleWords.Word,
                             words: ScheduleWords) throws(ScheduleParseError) -> (hour: Int, minute: Int) {
        guard let word else {
            throw ScheduleParseError(column: words.endColumn, message: "expected a time HH:MM after '\(previous.text)', found the end")
        }
        let parts = word.text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              let hour = number(parts[0], in: 0...23), let minute = number(parts[1], in: 0...59) else {
            throw ScheduleParseError(column: word.column, message: "expected a time HH:MM (00:00 to 23:59), found '\(word.text)'")
        }
        return (hour, minute)
    }

    private static func number(_ text: Substring, in range: ClosedRange<Int>) -> Int? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text), range.contains(value) else {
            return nil
        }
        return value
    }
}

/// The space-separated words of a schedule, each with its 1-based column.
struct ScheduleWords {
    struct Word {
        let text: String
        let column: Int
    }

    private var words: [Word]
    /// The column just past the text (where something missing at the end would go).
    let endColumn: Int

    init(_ text: String) {
        var words: [Word] = []
        var current = ""
        var start = 0
        for (index, character) in text.enumerated() {
            if character == " " || character == "\t" {
                if !current.isEmpty { words.append(Word(text: current, column: start + 1)) }
                current = ""
            } else {
                if current.isEmpty { start = index }
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(Word(text: current, column: start + 1)) }
        self.words = words
        self.endColumn = text.count + 1
    }

    func peek() -> Word? { words.first }

    mutating func next() -> Word? { words.isEmpty ? nil : words.removeFirst() }
}
