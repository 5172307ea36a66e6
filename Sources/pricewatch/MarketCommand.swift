import ArgumentParser
import FoundationEssentials
import PriceWatchApp
import PriceWatchCore

/// `pricewatch market [MARKET] [--from DATE] [--to DATE] [--tz ZONE] [--format text|json]`:
/// every known market open or closed now, or one market's sessions in a date range.
struct MarketCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "market",
        abstract: "Show which markets are open, or one market's trading sessions.",
        discussion: """
            Without MARKET: every known market, open or closed now, with its next open or close \
            in the market's time and in local time (--tz ZONE, else $TZ, else the system zone). \
            With MARKET (XNYS, XLON, CMES, 24/7, ...; an alias such as XNAS works too): its \
            sessions dated --from ... --to (default: this week, Monday to Sunday, in the \
            market's zone), one line per trading day and per weekday holiday; OPEN, CLOSE and \
            BREAK are in the market's time. The calendars come from the shipped directory \
            ($PRICEWATCH_CALENDARS, else /usr/share/pricewatch/calendars, else \
            /usr/local/share/pricewatch/calendars) and calendars.d beside the main file \
            (docs/markets.md). JSON times are UTC.
            """)

    @OptionGroup var config: ConfigOption

    @Argument(help: ArgumentHelp("A market code (XNYS, XLON, 24/7, ...).", valueName: "market"))
    var market: String?

    @Option(help: ArgumentHelp("The first session date, YYYY-MM-DD (default: this week's Monday).", valueName: "date"))
    var from: String?

    @Option(help: ArgumentHelp("The last session date, YYYY-MM-DD (default: this week's Sunday).", valueName: "date"))
    var to: String?

    @Option(help: ArgumentHelp("The zone of LOCAL times in text output: an IANA zone such as Europe/Paris (default: $TZ, else the system zone).",
                               valueName: "zone"))
    var tz: String?

    @Option(help: "Output format: text (an aligned table), or json for JSON Lines (UTC times).")
    var format: OutputFormat = .text

    // Only for tests and demos: the instant taken as now (RFC 3339). Documented in docs/markets.md.
    @Option(help: .hidden)
    var now: String?

    func validate() throws {
        if let from, CivilDate(parsing: from) == nil { throw ValidationError("--from: expected a date YYYY-MM-DD, found '\(from)'") }
        if let to, CivilDate(parsing: to) == nil { throw ValidationError("--to: expected a date YYYY-MM-DD, found '\(to)'") }
        if let from = from.flatMap(CivilDate.init(parsing:)), let to = to.flatMap(CivilDate.init(parsing:)) {
            if to < from { throw ValidationError("--to (\(to)) is before --from (\(from))") }
            if to.dayNumber - from.dayNumber > 3_660 { throw ValidationError("--from ... --to spans more than ten years") }
        }
        if let tz, TimeZone(identifier: tz) == nil { throw ValidationError("--tz: unknown time zone '\(tz)' (expected an IANA zone such as Europe/Paris)") }
        if let now, Timestamp(parsing: now) == nil { throw ValidationError("--now: expected an RFC 3339 time, found '\(now)'") }
        if market == nil, from != nil || to != nil { throw ValidationError("--from and --to need a MARKET") }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let instant = now.flatMap(Timestamp.init(parsing:)) ?? Alerts.now()
        let (calendars, diagnostics) = MarketCalendarsLoader.load(configPath: config.path, environment: environment)
        StandardOutput.report(diagnostics)
        let local = Self.localZone(option: tz, environment: environment)
        var output = StandardOutput.output()
        guard let market else {
            let markets = ShowMarkets.overview(calendars, now: instant)
            if markets.isEmpty {
                let looked = MarketCalendarsLoader.searchedDirectories(configPath: config.path, environment: environment)
                throw StandardOutput.failure("error: no trading calendars to show; looked in \(looked.joined(separator: ", "))")
            }
            switch format {
            case .text:
                let rows = markets.map { overview -> [String] in
                    let zone = TimeZone(identifier: overview.timeZone) ?? local
                    let next = overview.status.nextKnownChange
                    return [overview.market.rawValue, overview.status.isOpen ? "open" : "closed",
                            next == nil ? "-" : (overview.status.isOpen ? "closes" : "opens"),
                            next.map { ZonedTime.text($0, in: zone) } ?? "-", next.map { ZonedTime.text($0, in: local) } ?? "-",
                            overview.name]
                }
                for line in TextTable.render(header: ["MARKET", "STATUS", "NEXT", "MARKET_TIME", "LOCAL_TIME", "NAME"], rows: rows) {
                    output.line(line)
                }
            case .json:
                for overview in markets {
                    var json = JSONWriter()
                    json.string("market", overview.market.rawValue)
                    json.string("name", overview.name)
                    json.string("time_zone", overview.timeZone)
                    json.string("status", overview.status.isOpen ? "open" : "closed")
                    json.time("next_change", overview.status.nextKnownChange)
                    output.line(json.result)
                }
            }
            output.flush()
            return
        }
        let calendar: TradingCalendar
        switch ShowMarkets.calendar(calendars, code: market) {
        case .success(let found): calendar = found
        case .failure(let error): throw StandardOutput.failure("error: \(error)")
        }
        let week = ShowMarkets.week(of: calendar, at: instant)
        let first = from.flatMap(CivilDate.init(parsing:)) ?? week.first
        let last = to.flatMap(CivilDate.init(parsing:)) ?? (from == nil ? week.last : first.adding(days: 6))
        let days = ShowMarkets.days(of: calendar, from: first, through: last)
        let zone = TimeZone(identifier: calendar.timeZoneIdentifier) ?? local
        switch format {
        case .text:
            let rows = days.map { day -> [String] in
                guard let session = day.session else {
                    return [day.date.description, Self.weekdayName(day.date.weekday), "-", "-", "-", "-", "-", day.holiday ?? "closed"]
                }
                var notes: [String] = []
                if day.isLateOpen { notes.append("late open") }
                if day.isEarlyClose { notes.append("early close") }
                let breakText = zip(session.breakStart, session.breakEnd).map { "\(ZonedTime.clock($0, in: zone))-\(ZonedTime.clock($1, in: zone))" } ?? "-"
                return [day.date.description, Self.weekdayName(day.date.weekday),
                        ZonedTime.clock(session.open, in: zone, dayOf: day.date), ZonedTime.clock(session.close, in: zone, dayOf: day.date),
                        breakText, ZonedTime.text(session.open, in: local), ZonedTime.text(session.close, in: local),
                        notes.isEmpty ? "" : notes.joined(separator: ", ")]
            }
            if rows.isEmpty {
                var errors = StandardOutput.error()
                errors.line("\(calendar.market): no trading days from \(first) to \(last)")
                errors.flush()
            }
            for line in TextTable.render(header: ["DATE", "DAY", "OPEN", "CLOSE", "BREAK", "LOCAL_OPEN", "LOCAL_CLOSE", "NOTE"], rows: rows) {
                output.line(line)
            }
        case .json:
            for day in days {
                var json = JSONWriter()
                json.string("market", calendar.market.rawValue)
                json.string("date", day.date.description)
                if let session = day.session {
                    json.time("open", session.open)
                    json.time("close", session.close)
                    json.time("break_start", session.breakStart)
                    json.time("break_end", session.breakEnd)
                    json.string("note", day.isEarlyClose ? "early close" : day.isLateOpen ? "late open" : nil)
                } else {
                    json.string("holiday", day.holiday ?? "closed")
                }
                output.line(json.result)
            }
        }
        output.flush()
    }

    static func weekdayName(_ day: Weekday) -> String {
        day.name.prefix(1).uppercased() + day.name.dropFirst()
    }

    /// `--tz`, else `$TZ` when it names a zone, else the system zone.
    static func localZone(option: String?, environment: [String: String]) -> TimeZone {
        if let option, let zone = TimeZone(identifier: option) { return zone }
        if var name = environment["TZ"], !name.isEmpty {
            if name.hasPrefix(":") { name.removeFirst() }
            if name.hasPrefix("/usr/share/zoneinfo/") { name.removeFirst("/usr/share/zoneinfo/".count) }
            if let zone = TimeZone(identifier: name) { return zone }
        }
        return TimeZone.current
    }
}

private func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}
