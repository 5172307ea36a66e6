import FoundationEssentials
import PriceWatchCore
import PriceWatchTOML

/// Reads the main file's `[[digest]]` tables (`docs/digests.md`, "Configuration"): each a
/// digest with a name, a schedule in a time zone, its sinks and what goes in.
extension MainFileReader {
    static let digestKeys = ["name", "schedule", "on_close", "timezone", "period", "notify", "top", "charts", "markets",
                             "portfolios", "paper"]
    /// The largest `top`: a digest is a summary, and chat services limit a message's size.
    static let maximumDigestTop = 25

    /// The valid digests, in file order. `settings` must already hold the sinks and the main
    /// `notify` (a digest without `notify` goes where rules without one go).
    ///
    /// Also returns, per digest name, where its `portfolios` list is written.
    func readDigests(_ root: TableReader, settings: MainSettings) -> ([DigestSettings], [String: TOMLKeyPath]) {
        guard let value = root["digest"] else { return ([], [:]) }
        guard case .array(let array) = value else {
            root.error("expected an array of tables ([[digest]] with name and schedule), found \(value.kindDescription)", key: "digest")
            return ([], [:])
        }
        var digests: [DigestSettings] = []
        var digestPortfolioPaths: [String: TOMLKeyPath] = [:]
        var names: [String: TOMLKeyPath] = [:]
        for (index, element) in array.elements.enumerated() {
            let path = TOMLKeyPath(keys: "digest").appending(index: index)
            guard case .table(let values) = element else {
                file.error("digest #\(index + 1): expected a table, found \(element.kindDescription)", at: path)
                continue
            }
            var label = "digest #\(index + 1)"
            if case .string(let written)? = values["name"], !written.isEmpty { label = "digest '\(written)'" }
            let reader = TableReader(file: file, path: path, values: values, subject: .rule(label))
            reader.checkUnknownKeys(allowed: Self.digestKeys)
            let errors = file.errorCount

            let name = reader.nonEmptyString("name", expected: "a name such as \"weekly\"")
            if !reader.has("name") { reader.missing("missing 'name' (a name such as \"weekly\")", keys: ["name"]) }
            if let name {
                if let first = names[name] {
                    reader.error("duplicate digest name; first defined at \(file.location(of: first))", key: "name")
                } else {
                    names[name] = path.appending("name")
                }
            }

            var schedule: DigestSchedule?
            var zone = "UTC"
            if reader.has("schedule") && reader.has("on_close") {
                reader.tableError("expected one of 'schedule' and 'on_close', found both", at: "on_close")
            }
            if let text = reader.nonEmptyString("schedule", expected: "a schedule such as \"weekly mon 08:00 America/New_York\"") {
                do {
                    let calendar = try CalendarSchedule(parsing: text)
                    schedule = .calendar(calendar)
                    zone = calendar.zoneName
                } catch {
                    reader.error("\(error.message) (column \(error.column) of \(Wording.quoted(text)))", key: "schedule")
                }
                if reader.has("timezone") {
                    reader.error("'timezone' goes with 'on_close'; a schedule names its zone itself (\"daily 18:00 America/New_York\")",
                                 key: "timezone")
                }
            } else if let code = reader.nonEmptyString("on_close", expected: "a market code such as \"XNYS\"") {
                if RuleReader.isMarketCode(code) {
                    schedule = .marketClose(MarketIdentifier(code))
                } else {
                    reader.error(RuleReader.marketCodeExpected + ", found \(Wording.quoted(code))", key: "on_close")
                }
                if let name = reader.nonEmptyString("timezone", expected: "an IANA time zone such as \"America/New_York\"") {
                    if TimeZone(identifier: name) != nil {
                        zone = name
                    } else {
                        reader.error("unknown time zone \(Wording.quoted(name)) (expected an IANA name from the system's tzdata, "
                                     + "such as Europe/Berlin or America/New_York)", key: "timezone")
                    }
                }
            } else if !reader.has("schedule") && !reader.has("on_close") {
                reader.missing("missing 'schedule' (\(CalendarSchedule.syntax)) or 'on_close' (a market code)", keys: ["schedule", "on_close"])
            }

            var period: DigestPeriod?
            if let text = reader.nonEmptyString("period", expected: "\"day\", \"week\" or \"month\"") {
                period = DigestPeriod(rawValue: text)
                if period == nil { reader.error("expected \"day\", \"week\" or \"month\", found \(Wording.quoted(text))", key: "period") }
            }

            var notify: [String]?
            if reader.has("notify") {
                if let written = reader.nameList("notify", kind: "sink") {
                    let before = file.errorCount
                    if settings.sinksReadable {
                        reader.checkDeclared(written, key: "notify", kind: "sink", declared: settings.sinkNames)
                    }
                    if file.errorCount == before { notify = written }
                }
            } else {
                notify = settings.defaultNotify ?? settings.sinkNames
            }

            var top = DigestSettings.defaultTopCount
            if let written = reader.positiveInteger("top") {
                if written > Self.maximumDigestTop {
                    reader.error("expected at most \(Self.maximumDigestTop), found \(written)", key: "top")
                } else {
                    top = written
                }
            }
            let charts = reader.bool("charts") ?? true
            var markets: [MarketIdentifier] = []
            if let codes = reader.stringArray("markets", expected: "an array of market codes such as [\"XNYS\", \"24/7\"]") {
                for (offset, code) in codes.enumerated() where !RuleReader.isMarketCode(code) {
                    reader.error(RuleReader.marketCodeExpected + ", found \(Wording.quoted(code))", key: "markets",
                                 at: path.appending("markets").appending(index: offset))
                }
                markets = codes.map { MarketIdentifier($0) }
            }

            // Which portfolios and paper accounts the performance sections report on; whether a
            // portfolio exists is checked by the loader, which reads portfolios.d.
            let portfolios = reader.has("portfolios") ? reader.nameList("portfolios", kind: "portfolio", allowingEmpty: true) : nil
            let paper = reader.has("paper") ? reader.nameList("paper", kind: "paper account", allowingEmpty: true) : nil

            guard file.errorCount == errors, let name, let schedule, let notify, !notify.isEmpty else { continue }
            let defaultPeriod: DigestPeriod = if case .calendar(let calendar) = schedule, case .weekly = calendar.cadence { .week } else { .day }
            var digest = DigestSettings(name: name, schedule: schedule, timeZone: zone, period: period ?? defaultPeriod, notify: notify,
                                        topCount: top, charts: charts, markets: markets)
            digest.portfolios = portfolios
            digest.paperAccounts = paper
            if portfolios != nil { digestPortfolioPaths[name] = path.appending("portfolios") }
            digests.append(digest)
        }
        return (digests, digestPortfolioPaths)
    }
}
