import ArgumentParser
import Foundation
import PriceWatchApp
import PriceWatchCore
import PriceWatchPresentation

/// `pricewatch history SYMBOL [--range R] [--interval I] [--format text|json|csv|png|svg] [--output FILE] [--theme light|dark] [--size WxH] [--tz ZONE]`
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show a symbol's price history: a chart in the terminal or as a PNG or SVG file, JSON Lines or backtest CSV.",
        discussion: """
            Reads the history the daemon stored from its polls (the state database, read-only); \
            when it does not reach back to the start of the range, the rest is fetched from the \
            provider's chart endpoint (yahoo, binance, coinbase) and shown, not stored. Text says \
            which on its first line; json, csv, png and svg say it on standard error. Text: a braille line \
            chart of the closes with the previous close, the symbol's rule thresholds and its \
            technical rules' series (averages over the prices, oscillators in panels under them); colour \
            only on a terminal and never with NO_COLOR. JSON: one candle per line, times UTC. \
            CSV: the backtest format (symbol,time,price,previous_close,currency), times UTC, so \
            the output is input to 'pricewatch backtest --data'. PNG and SVG: the same chart as \
            the alert emails' (the closes, the previous close, the rules' levels and series) \
            written to --output, in --theme light or dark, --size WIDTHxHEIGHT pixels.
            """)

    @OptionGroup var config: ConfigOption

    @Option(help: ArgumentHelp("How far back: 1d, 5d, 1mo, 6mo, 1y, 5y or max.", valueName: "range"))
    var range: HistoryRange = .oneDay

    @Option(help: ArgumentHelp("Candle width: 1m, 5m, 1h or 1d (default: by range, 1m for 1d up to 1d for 6mo and longer).",
                               valueName: "interval"))
    var interval: CandleInterval?

    @Option(help: "Output format: text (a chart), json (JSON Lines, one candle per line), csv (the backtest format), or png or svg (a chart image; needs --output).")
    var format: HistoryFormat = .text

    @Option(help: ArgumentHelp("The file a png or svg chart is written to.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Colours of a png or svg chart: light or dark.", valueName: "theme"))
    var theme: ChartTheme = .light

    @Option(help: ArgumentHelp("Size of a png or svg chart in pixels, WIDTHxHEIGHT.", valueName: "size"))
    var size: String = "1200x600"

    @Option(help: ArgumentHelp("Time zone of the text output: an IANA zone, or 'market' for the symbol's market (default: $TZ, else UTC).",
                               valueName: "zone"))
    var tz: String?

    @Option(help: ArgumentHelp("The provider to backfill from (default: the provider of the symbol's rules, else the main file's).",
                               valueName: "name"))
    var provider: String?

    @Option(help: ArgumentHelp("The end of the range: RFC 3339, unix seconds or a date (default: now).", valueName: "time"))
    var end: String?

    @Option(help: ArgumentHelp("Width of the chart in columns (default: the terminal's, else 80).", valueName: "columns"))
    var width: Int?

    @Option(help: ArgumentHelp("Height of the chart in rows.", valueName: "rows"))
    var height: Int = 12

    @Argument(help: ArgumentHelp("The symbol as its provider writes it (AAPL, BTC-USD, BTCUSDT).", valueName: "symbol"))
    var symbol: String

    func validate() throws {
        if symbol.isEmpty || symbol.contains(where: { $0.isWhitespace || $0.isNewline }) {
            throw ValidationError("expected a symbol without blanks, found '\(symbol)'")
        }
        if let tz, tz != "market", TimeZone(identifier: tz) == nil {
            throw ValidationError("--tz: expected an IANA time zone such as 'America/New_York' or 'market', found '\(tz)'")
        }
        if let end, Timestamp(parsing: end) == nil {
            throw ValidationError("--end: expected a time such as '2024-10-02T20:00:00Z', unix seconds or a date, found '\(end)'")
        }
        if let width, width < 30 { throw ValidationError("--width: expected at least 30 columns, found \(width)") }
        if format.imageFormat != nil, output == nil {
            throw ValidationError("--format \(format.rawValue): expected --output FILE to write the chart to")
        }
        if format.imageFormat == nil, output != nil {
            throw ValidationError("--output: only for --format png or svg, found --format \(format.rawValue)")
        }
        if Self.pixels(size) == nil {
            throw ValidationError("--size: expected WIDTHxHEIGHT in pixels, 200x150 to 4000x3000, such as 1200x600, found '\(size)'")
        }
        if height < 3 || height > 200 { throw ValidationError("--height: expected 3 to 200 rows, found \(height)") }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let interval = interval ?? range.defaultInterval
        let history: ReadPriceHistory.History
        switch await ReadPriceHistory.read(symbol: symbol, range: range, interval: interval, provider: provider,
                                           configPath: config.path, environment: environment, now: end.flatMap(Timestamp.init(parsing:)) ?? Alerts.now(),
                                           marketHours: MarketCalendarsLoader.load(configPath: config.path, environment: environment).calendars,
                                           builtInWhenAbsent: config.isDefault, report: StandardOutput.report) {
        case .configurationFailed:
            throw ExitCode.failure
        case .failed(let line):
            throw StandardOutput.failure("\(symbol): error: \(line)")
        case .read(let read):
            history = read
        }
        var output = StandardOutput.output()
        var errors = StandardOutput.error()
        if format != .text {
            errors.line("\(symbol): \(history.candles.count) \(interval) candles, \(history.source)")
            if let problem = history.backfillProblem { errors.line("\(symbol): warning: backfill failed: \(problem)") }
        }
        switch format {
        case .csv:
            let zone = history.marketTimeZone.flatMap(TimeZone.init(identifier:)) ?? Self.utc
            for row in HistoryCSV.rows(symbol: symbol, candles: history.candles, currency: history.currency,
                                       firstPreviousClose: history.closeBeforeRange,
                                       quotedPreviousCloses: history.quotedPreviousCloses, timeZone: zone) {
                output.line(row)
            }
        case .json:
            for candle in history.candles {
                var writer = JSONWriter()
                writer.string("symbol", symbol)
                writer.string("interval", candle.interval.rawValue)
                writer.time("time", candle.time)
                writer.number("open", candle.open)
                writer.number("high", candle.high)
                writer.number("low", candle.low)
                writer.number("close", candle.close)
                writer.number("volume", candle.volume)
                writer.string("currency", history.currency)
                output.line(writer.result)
            }
        case .text:
            for line in text(history, environment: environment) { output.line(line) }
        case .png, .svg:
            try await writeImage(history, environment: environment)
        }
        errors.flush()
        output.flush()
    }

    static let utc = TimeZone(identifier: "UTC") ?? .gmt

    /// `WIDTHxHEIGHT` within 200x150 to 4000x3000.
    static func pixels(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (200...4000).contains(width), (150...3000).contains(height) else { return nil }
        return (width, height)
    }

    /// The chart as a png or svg file at `--output`.
    func writeImage(_ history: ReadPriceHistory.History, environment: [String: String]) async throws {
        guard let imageFormat = format.imageFormat, let path = output, let (width, height) = Self.pixels(size) else { return }
        let (zone, _) = zone(history, environment: environment)
        let bytes: [UInt8]
        do {
            let chart = try HistoryChartImage.description(of: history, theme: theme, width: width, height: height,
                                                          timeZone: zone.identifier == "GMT" ? "UTC" : zone.identifier)
            bytes = try await HistoryChartImage.render(chart, as: imageFormat)
        } catch {
            throw StandardOutput.failure("\(symbol): error: \(error)")
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw StandardOutput.failure("\(symbol): error: could not write the chart to \(path): \(String(cString: strerror(errno)))")
        }
        var errors = StandardOutput.error()
        errors.line("\(symbol): wrote a \(width)x\(height) \(imageFormat.rawValue) chart of \(history.candles.count) candles to \(path)")
        errors.flush()
    }

    /// The zone of the text output: `--tz` (or `market`), else `$TZ`, else UTC.
    func zone(_ history: ReadPriceHistory.History, environment: [String: String]) -> (TimeZone, String) {
        if tz == "market" {
            if let name = history.marketTimeZone, let zone = TimeZone(identifier: name) { return (zone, name) }
            return (Self.utc, "UTC (market zone unknown)")
        }
        if let tz, let zone = TimeZone(identifier: tz) { return (zone, tz) }
        if let value = environment["TZ"], !value.isEmpty {
            let name = value.hasPrefix(":") ? String(value.dropFirst()) : value
            if let zone = TimeZone(identifier: name) { return (zone, name) }
        }
        return (Self.utc, "UTC")
    }

    func text(_ history: ReadPriceHistory.History, environment: [String: String]) -> [String] {
        let (zone, zoneName) = zone(history, environment: environment)
        var lines: [String] = []
        let currency = history.currency ?? "currency unknown"
        let first = history.candles.first.map { LocalTimeText.text($0.time, zone: zone) } ?? "-"
        let last = history.candles.last.map { LocalTimeText.text($0.time, zone: zone) } ?? "-"
        lines.append("\(symbol)  \(currency)  \(history.candles.count) \(history.interval) candles  \(first) to \(last) \(zoneName)  (\(history.source))")
        if let newest = history.candles.last {
            var summary = "last \(newest.close.formatted(minimumFractionDigits: 2))"
            if let base = history.previousClose, let change = newest.close.percentChange(from: base, roundedTo: 2) {
                summary += "  \(change.isPositive ? "+" : "")\(change.formatted(minimumFractionDigits: 2))% from previous close \(base.formatted(minimumFractionDigits: 2))"
            }
            if let low = history.candles.map(\.low).min(), let high = history.candles.map(\.high).max() {
                summary += "  low \(low.formatted(minimumFractionDigits: 2))  high \(high.formatted(minimumFractionDigits: 2))"
            }
            lines.append(summary)
        }
        if let problem = history.backfillProblem { lines.append("warning: backfill failed: \(problem)") }
        var levels = history.thresholds
        if let previousClose = history.previousClose {
            levels.insert(TerminalChart.Level(label: "previous close \(previousClose.formatted(minimumFractionDigits: 2))",
                                              price: previousClose), at: 0)
        }
        let colour = isatty(STDOUT_FILENO) == 1 && (environment["NO_COLOR"] ?? "").isEmpty
        let columns = width ?? TerminalWidth.columns(environment: environment)
        let times = history.candles.map(\.time)
        let overlays = history.seriesLines.overlays.map { overlay in
            TerminalChart.Overlay(label: overlay.label, values: SeriesChartLines.values(of: overlay.points, at: times))
        }
        let chart = TerminalChart(candles: history.candles, width: columns, height: height, timeZone: zone, levels: levels,
                                  colour: colour, overlays: overlays)
        lines += chart.render()
        for panel in history.seriesLines.panels { lines += panelText(panel, times: times, interval: history.interval, width: columns, zone: zone, colour: colour) }
        return lines
    }

    /// An oscillator's panel under the chart: its title, then its first line (or histogram)
    /// over the same candles, its other lines over it and its levels (RSI's 30 and 70).
    func panelText(_ panel: ChartPanel, times: [Timestamp], interval: CandleInterval, width: Int, zone: TimeZone, colour: Bool) -> [String] {
        let main = panel.lines.first?.points ?? panel.histogram
        let values = SeriesChartLines.values(of: main, at: times)
        // Rounded as series values are shown, so the axis reads `42.50`, not `42.50429197`.
        func shown(_ value: ExactDecimal) -> ExactDecimal { ExactDecimal(SeriesReading.display(value)) ?? value }
        let candles = zip(times, values).compactMap { time, value in
            value.map(shown).map { Candle(time: time, interval: interval, open: $0, high: $0, low: $0, close: $0) }
        }
        guard Set(candles.map(\.close)).count > 1 else { return [panel.title, "(not enough bars in this range)"] }
        let drawnTimes = Set(candles.map { $0.time })
        let overlays = panel.lines.dropFirst().map { line in
            TerminalChart.Overlay(label: line.label, values: zip(times, SeriesChartLines.values(of: line.points, at: times))
                .filter { drawnTimes.contains($0.0) }.map { $0.1.map(shown) })
        }
        let levels = panel.levels.compactMap { level in
            ExactDecimal(fast: level).map { TerminalChart.Level(label: SeriesReading.display($0), price: $0) }
        }
        return [panel.title] + TerminalChart(candles: candles, width: width, height: 4, timeZone: zone, levels: levels,
                                             colour: colour, overlays: overlays, showsTimeAxis: false, drawsEveryLevel: true).render()
    }
}

/// `--format text|json|csv|png|svg` of `history`.
enum HistoryFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, csv, png, svg

    /// The image format of a chart file; nil for the text formats.
    var imageFormat: ChartImageFormat? {
        switch self {
        case .png: .png
        case .svg: .svg
        case .text, .json, .csv: nil
        }
    }
}

extension ChartTheme: ExpressibleByArgument {}

extension HistoryRange: ExpressibleByArgument {}
extension CandleInterval: ExpressibleByArgument {}

/// The width of the terminal on standard output: `COLUMNS`, else the terminal's own, else 80.
enum TerminalWidth {
    static func columns(environment: [String: String]) -> Int {
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
