import Foundation

/// `pricewatch-bench generate DIR [ROWS] [SYMBOLS] [RULES_PER_SYMBOL]`: writes `data.csv` (a
/// seeded random walk per symbol, one-minute steps, interleaved by time) and `rules.toml` (a
/// mix of every condition kind, price and window-based) for `scripts/bench`.
///
/// `pricewatch-bench daemon-config DIR SYMBOLS`: a daemon configuration watching SYMBOLS
/// symbols through a replay provider, for the idle-memory measurement.
///
/// `pricewatch-bench startup PRICEWATCH DIR RULES...`: start to READY and reload to READY of
/// the daemon with each number of rules (``StartupBenchmark``).
///
/// `pricewatch-bench daemon-over-time DIR [SYMBOLS] [SIMULATED_SECONDS]`: the daemon's services
/// over an hour of simulated time at full speed (``DaemonOverTimeBenchmark``).
///
/// `pricewatch-bench backtest-reference RULES CSV`: the in-memory reference backtest (the whole
/// series read, then sorted), JSON Lines like `pricewatch backtest --format json`, to compare.
///
/// `pricewatch-bench poll-cycle [SYMBOLS[,SYMBOLS…]] [CYCLES] [YAHOO_SYMBOLS]`: poll cycles of
/// SYMBOLS symbols, for each size of the list (default 10,000 and 50,000; YAHOO_SYMBOLS of
/// them, default half, on yahoo, the rest on binance) over libcurl against loopback servers
/// (``PollCycleBenchmark``).
///
/// `pricewatch-bench bar-close [SYMBOLS] [ROUNDS]`: one bar close of SYMBOLS symbols x 10
/// indicator rules in the engine (``BarCloseBenchmark``).
///
/// `pricewatch-bench config-load [RELOADS]`: configuration loading at 1k/10k/100k rules and
/// memory over reloads (``ConfigLoadBenchmark``).
@main
struct BenchmarkData {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.first == "startup", arguments.count >= 3 {
            let rest = Array(arguments.dropFirst())
            do {
                try StartupBenchmark.run(executable: rest[0], directory: rest[1],
                                         ruleCounts: rest.dropFirst(2).compactMap { Int($0) })
            } catch {
                FileHandle.standardError.write(Data("pricewatch-bench: \(error)\n".utf8))
                exit(1)
            }
            return
        }
        if arguments.first == "startup-spread", arguments.count >= 3 {
            let rest = Array(arguments.dropFirst())
            do {
                try StartupSpreadBenchmark.run(executable: rest[0], directory: rest[1], starts: rest.count > 2 ? Int(rest[2]) ?? 10 : 10)
            } catch {
                FileHandle.standardError.write(Data("pricewatch-bench: \(error)\n".utf8))
                exit(1)
            }
            return
        }
        if arguments.first == "daemon-over-time", arguments.count >= 2 {
            let rest = Array(arguments.dropFirst())
            let numbers = rest.dropFirst().compactMap { Int($0) }
            do {
                try await DaemonOverTimeBenchmark.run(directory: rest[0], symbols: max(numbers.first ?? 1000, 1),
                                                      simulatedSeconds: max(numbers.dropFirst().first ?? 3600, 10))
            } catch {
                FileHandle.standardError.write(Data("pricewatch-bench: \(error)\n".utf8))
                exit(1)
            }
            return
        }
        if arguments.first == "backtest-reference", arguments.count == 3 {
            let rest = Array(arguments.dropFirst())
            exit(BacktestReference.run(rules: rest[0], data: rest[1]))
        }
        if arguments.first == "poll-cycle" {
            let rest = Array(arguments.dropFirst())
            let sizes = rest.first.map { $0.split(separator: ",").compactMap { Int($0) } } ?? PollCycleBenchmark.defaultSizes
            let numbers = rest.dropFirst().compactMap { Int($0) }
            for size in sizes.isEmpty ? PollCycleBenchmark.defaultSizes : sizes {
                try await PollCycleBenchmark.run(symbols: max(size, 1), cycles: max(numbers.first ?? 5, 1),
                                                 yahooSymbols: numbers.dropFirst().first)
            }
            return
        }
        if arguments.first == "daemon-poll", arguments.count >= 4 {
            let rest = Array(arguments.dropFirst())
            let numbers = rest.dropFirst(2).compactMap { Int($0) }
            do {
                try await DaemonPollBenchmark.run(executable: rest[0], directory: rest[1], symbols: max(numbers.first ?? 10_000, 2),
                                                  cycles: max(numbers.dropFirst().first ?? 5, 1),
                                                  interval: max(numbers.dropFirst(2).first ?? 10, 1),
                                                  rulesPerSymbol: max(numbers.dropFirst(3).first ?? 2, 1))
            } catch {
                FileHandle.standardError.write(Data("pricewatch-bench: \(error)\n".utf8))
                exit(1)
            }
            return
        }
        if arguments.first == "market-hours" {
            let rest = Array(arguments.dropFirst())
            try MarketHoursBenchmark.run(directory: rest.first ?? "calendars",
                                         lookups: max(rest.dropFirst().compactMap { Int($0) }.first ?? 1_000_000, 1))
            return
        }
        if arguments.first == "market-week" {
            let numbers = arguments.dropFirst().compactMap { Int($0) }
            do {
                try MarketWeekBenchmark.run(interval: Int64(max(numbers.first ?? 60, 1)), batch: max(numbers.dropFirst().first ?? 50, 1))
            } catch {
                FileHandle.standardError.write(Data("pricewatch-bench: \(error)\n".utf8))
                exit(1)
            }
            return
        }
        if arguments.first == "bar-close" {
            let numbers = arguments.dropFirst().compactMap { Int($0) }
            BarCloseBenchmark.run(symbols: max(numbers.first ?? 10_000, 1), rounds: max(numbers.dropFirst().first ?? 5, 1))
            return
        }
        if arguments.first == "page-render" {
            exit(PageRenderBenchmark.run(rounds: max(arguments.dropFirst().compactMap { Int($0) }.first ?? 50, 1)))
        }
        if arguments.first == "config-load" {
            try ConfigLoadBenchmark.run(reloads: arguments.dropFirst().compactMap { Int($0) }.first ?? 1_000)
            return
        }
        guard let command = arguments.first, let directory = arguments.dropFirst().first else {
            FileHandle.standardError.write(Data("usage: pricewatch-bench generate DIR [ROWS] [SYMBOLS] [RULES_PER_SYMBOL] [symbol-major] [indicators] | bar-close [SYMBOLS] [ROUNDS] | startup PRICEWATCH DIR RULES... | backtest-reference RULES CSV | daemon-over-time DIR [SYMBOLS] [SIMULATED_SECONDS] | daemon-config DIR SYMBOLS | daemon-poll PRICEWATCH DIR SYMBOLS [CYCLES] [INTERVAL_SECONDS] [RULES_PER_SYMBOL] | poll-cycle [SYMBOLS[,SYMBOLS...]] [CYCLES] [YAHOO_SYMBOLS] | config-load [RELOADS] | page-render [ROUNDS] | market-hours [CALENDARS_DIR] [LOOKUPS] | market-week [INTERVAL_SECONDS] [BATCH] | outbox DIR [LATENCY_ALERTS] [ALERTS]\n".utf8))
            exit(64)
        }
        let numbers = arguments.dropFirst(2).compactMap { Int($0) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        switch command {
        case "generate":
            let rows = numbers.first ?? 1_000_000
            let symbols = numbers.dropFirst().first ?? 100
            let rulesPerSymbol = numbers.dropFirst(2).first ?? 10
            try generate(directory: directory, rows: rows, symbols: symbols, rulesPerSymbol: rulesPerSymbol,
                         symbolMajor: arguments.contains("symbol-major"), indicators: arguments.contains("indicators"))
        case "daemon-config":
            try daemonConfig(directory: directory, symbols: numbers.first ?? 100)
        case "outbox":
            OutboxBenchmark.main(Array(arguments.dropFirst()))
        default:
            FileHandle.standardError.write(Data("unknown command \(command)\n".utf8))
            exit(64)
        }
    }

    static func symbolName(_ index: Int) -> String { "SYM\(index)" }

    /// A small deterministic generator (SplitMix64) so every run benchmarks the same data.
    struct SplitMix64 {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    }

    /// `symbolMajor`: the same rows grouped by symbol (all of the first symbol's rows, then the
    /// next symbol's...), a file out of time order with the same series (rows of equal time keep
    /// their relative order), so its backtest must give exactly the same alerts.
    static func generate(directory: String, rows: Int, symbols: Int, rulesPerSymbol: Int, symbolMajor: Bool = false,
                         stepSeconds: Int = 60, indicators: Bool = false) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let start = 1_727_875_800 // 2024-10-02T13:30:00Z
        var csv = "symbol,time,price,previous_close,currency\n"
        csv.reserveCapacity(1 << 21)
        let handle = try create(directory + "/data.csv")
        // Each symbol's walk has a generator of its own, so both orders produce the same rows.
        var randoms = (0..<symbols).map { SplitMix64(state: 42 &+ UInt64($0) &* 0x9E37_79B9) }
        var prices = randoms.indices.map { 50 + randoms[$0].unit() * 200 }
        let minutes = (rows + symbols - 1) / symbols
        func emit(symbol: Int, minute: Int) {
            let previousClose = prices[symbol]
            prices[symbol] *= 1 + (randoms[symbol].unit() - 0.5) * 0.004
            let price = (prices[symbol] * 100).rounded() / 100
            let close = (previousClose * 100).rounded() / 100
            csv += "\(symbolName(symbol)),\(start + minute * stepSeconds),\(cents(price)),\(cents(close)),USD\n"
            if csv.utf8.count > 1 << 20 {
                handle.write(Data(csv.utf8))
                csv.removeAll(keepingCapacity: true)
            }
        }
        if symbolMajor {
            for symbol in 0..<symbols {
                for minute in 0..<minutes where minute * symbols + symbol < rows { emit(symbol: symbol, minute: minute) }
            }
        } else {
            for row in 0..<rows { emit(symbol: row % symbols, minute: row / symbols) }
        }
        handle.write(Data(csv.utf8))
        try handle.close()

        var toml = "# \(symbols) symbols x \(rulesPerSymbol) rules, generated by pricewatch-bench\n"
        let kinds = indicators ? indicatorKinds
            : ["above = 150", "below = 100", "rise = 0.3", "fall = 0.3", "move = 0.5\nfrom = \"1h\"",
               "crosses = 125", "rise = 1\nfrom = \"15m\"\nrearm = 0.5", "fall = 2\nfrom = \"1d\"",
               "above = 200\ncooldown = \"30m\"", "move = 0.2\nrearm = 0.1"]
        for symbol in 0..<symbols {
            for rule in 0..<rulesPerSymbol {
                toml += "\n[[rule]]\nid = \"r\(symbol)-\(rule)\"\nsymbol = \"\(symbolName(symbol))\"\n\(kinds[rule % kinds.count])\n"
            }
        }
        try Data(toml.utf8).write(to: URL(fileURLWithPath: directory + "/rules.toml"))
    }

    /// The technical rules of the indicator mix (`generate … indicators`): ten per symbol on
    /// 15-minute bars, every kind of series.
    static let indicatorKinds = [
        "timeframe = \"15m\"\nof = \"sma(20)\"\ncrosses = \"sma(50)\"",
        "timeframe = \"15m\"\nof = \"rsi(14)\"\nbelow = 30\nrearm = 10",
        "timeframe = \"15m\"\nof = \"rsi(14)\"\nabove = 70\nrearm = 10",
        "timeframe = \"15m\"\nof = \"macd(12,26,9)\"\ncrosses = \"macd_signal(12,26,9)\"",
        "timeframe = \"15m\"\nabove = \"bb_upper(20,2)\"",
        "timeframe = \"15m\"\nbelow = \"bb_lower(20,2)\"",
        "timeframe = \"15m\"\nabove = \"highest(20)\"\ncooldown = \"1h\"",
        "timeframe = \"15m\"\nbelow = \"lowest(20)\"",
        "timeframe = \"15m\"\nof = \"ema(9)\"\ncrosses = \"wma(21)\"",
        "timeframe = \"15m\"\nof = \"roc(4)\"\nabove = 0.5\nrearm = 50",
    ]

    static func daemonConfig(directory: String, symbols: Int) throws {
        try generate(directory: directory, rows: symbols * 2, symbols: symbols, rulesPerSymbol: 3)
        try moveRulesIntoDirectory(directory)
        try Data(replayMainFile(interval: "5s").utf8).write(to: URL(fileURLWithPath: directory + "/pricewatch.toml"))
    }

    /// Splits the generated `rules.toml` into `rules.d/rules-NNNN.toml` files of at most
    /// `rulesPerFile` rules: a configuration file may have at most 1 MiB, and 100,000 rules
    /// take about 6 MB.
    static func moveRulesIntoDirectory(_ directory: String, rulesPerFile: Int = 5000) throws {
        let text = try String(contentsOfFile: directory + "/rules.toml", encoding: .utf8)
        let rules = text.components(separatedBy: "\n[[rule]]\n").dropFirst()
        try FileManager.default.createDirectory(atPath: directory + "/rules.d", withIntermediateDirectories: true)
        var file = 0
        var start = rules.startIndex
        while start < rules.endIndex {
            let end = min(start + rulesPerFile, rules.endIndex)
            let body = rules[start..<end].map { "\n[[rule]]\n" + $0 }.joined()
            try Data(body.utf8).write(to: URL(fileURLWithPath: directory + "/rules.d/rules-\(String(format: "%04d", file)).toml"))
            file += 1
            start = end
        }
        try FileManager.default.removeItem(atPath: directory + "/rules.toml")
    }

    /// A positive price with two decimals, as `String(format: "%.2f")` writes it (faster).
    static func cents(_ value: Double) -> String {
        let cents = Int((value * 100).rounded())
        let fraction = cents % 100
        return "\(cents / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// A main file with one replay provider over `data.csv` and a JSON stdout sink.
    static func replayMainFile(interval: String) -> String {
        """
        state = "state/pricewatch.db"
        interval = "\(interval)"

        [providers.replay]
        type = "replay"
        file = "data.csv"

        [sinks.discard]
        type = "stdout"
        format = "json"

        """
    }

    static func create(_ path: String) throws -> FileHandle {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        return handle
    }
}
