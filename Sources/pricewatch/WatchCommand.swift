import ArgumentParser
import Foundation
import PriceWatchApp
import PriceWatchCore
import PriceWatchPresentation

/// `pricewatch watch [--format text|json] [--tz ZONE]`: the watchlist.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Show every watched symbol: price, change, day range and sparkline, market, rules.",
        discussion: """
            One row per watched symbol from the state database (read-only, so it works while \
            the daemon runs): the newest stored price, its change from the previous close, the \
            currency, the day's range and a sparkline of the day from the stored history, the \
            symbol's market with the time to its next open or close ('-' when the calendars do \
            not know it), the price's time and each rule's state (a technical rule's also with its \
            series' values or its warm-up). On a terminal the text view \
            refreshes in place every poll interval until interrupted; piped, or as JSON Lines, \
            it prints once.
            """)

    @OptionGroup var config: ConfigOption
    @OptionGroup var credentials: CredentialsDirectoryOption

    @Option(help: "Output format: text (a table), or json for JSON Lines (one object per symbol, times UTC).")
    var format: OutputFormat = .text

    @Option(help: ArgumentHelp("Time zone of the TIME column: an IANA zone, or 'market' for each symbol's market (default: $TZ, else UTC).",
                               valueName: "zone"))
    var tz: String?

    func validate() throws {
        if let tz, tz != "market", TimeZone(identifier: tz) == nil {
            throw ValidationError("--tz: expected an IANA time zone such as 'Europe/London' or 'market', found '\(tz)'")
        }
    }

    func run() async throws {
        let (serviceCredentials, environment) = credentials.resolve()
        defer { serviceCredentials.cleanUp() }
        let utc = TimeZone(identifier: "UTC") ?? .gmt
        // `--tz market` with a market the calendars do not know: UTC, not the operator's zone.
        let zone = tz == "market" ? utc : tz.flatMap(TimeZone.init(identifier:))
            ?? environment["TZ"].flatMap { TimeZone(identifier: $0.hasPrefix(":") ? String($0.dropFirst()) : $0) }
            ?? utc
        let refreshes = format == .text && isatty(STDOUT_FILENO) == 1
        // Calendar diagnostics are reported by `pricewatch market` and `check`; here a missing
        // calendar only means markets show as unknown.
        let calendars = MarketCalendarsLoader.load(configPath: config.path, environment: environment).calendars
        while true {
            let now = Alerts.now()
            let entries: [WatchlistEntry]
            let refresh: RuleDuration
            switch await ReadWatchlist.read(configPath: config.path, environment: environment, now: now,
                                            marketHours: calendars, report: StandardOutput.report) {
            case .configurationFailed:
                throw ExitCode(1)
            case .failed(let error):
                throw StandardOutput.failure("error: \(error)")
            case .read(let read, let period):
                entries = read
                refresh = period
            }
            var output = StandardOutput.output()
            switch format {
            case .json:
                for entry in entries { output.line(entry.jsonLine(now: now)) }
            case .text:
                // Home and clear: the refreshed view replaces the last one.
                if refreshes { output.line("\u{1B}[H\u{1B}[2J" + "pricewatch watch  \(LocalTimeText.text(now, zone: zone))  every \(refresh)") }
                if entries.isEmpty {
                    var errors = StandardOutput.error()
                    errors.line("\(config.path): no rules")
                    errors.flush()
                } else {
                    for line in TextTable.render(header: WatchlistEntry.header, rows: entries.map { entry in
                        // `--tz market`: each symbol's market zone, UTC when the calendars do not know it.
                        let own = tz == "market" ? entry.marketTimeZone.flatMap(TimeZone.init(identifier:)) : nil
                        return entry.row(now: now, zone: own ?? zone)
                    },
                                                 rightAligned: WatchlistEntry.rightAligned) {
                        output.line(line)
                    }
                }
            }
            output.flush()
            guard refreshes else { return }
            try await Task.sleep(for: refresh.swiftDuration)
        }
    }
}
