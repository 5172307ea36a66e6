import Foundation
import PriceWatchApp
import PriceWatchConfig
import PriceWatchCore

/// `pricewatch-bench config-load [RELOADS]`: configuration loading at 1,000, 10,000 and
/// 100,000 rules (generated in a temporary directory, 1,000 rules per file under `rules.d/`),
/// then RELOADS (default 1,000) reloads of the 10,000-rule tree.
///
/// Prints the load time (best of several runs) and the process's peak resident memory after
/// each size, and the resident memory after the first reload and after the last with their
/// difference. Fails (exit 1) when a load does not give exactly the generated rules without
/// errors, or when resident memory grew by more than 5 MB over the reloads (issue 10 item 4).
enum ConfigLoadBenchmark {
    static let rulesPerFile = 1_000
    static let allowedGrowth = 5 * 1024 * 1024

    static func run(reloads: Int) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("pricewatch-config-load-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        print("config-load: load average \(loadAverage())")
        // Reloads first, so that the larger trees below do not inflate the heap they start from.
        try measureReloads(base: base, reloads: reloads)
        var perRule: [Double] = []
        for count in [1_000, 10_000, 100_000] {
            let directory = base + "/\(count)"
            try generate(directory: directory, rules: count)
            let runs = count >= 100_000 ? 3 : 5
            var best = Double.infinity
            for _ in 0..<runs {
                let start = ContinuousClock.now
                let rules = try load(directory, expecting: count)
                best = min(best, seconds(ContinuousClock.now - start))
                _ = rules
            }
            perRule.append(best / Double(count))
            print(String(format: "config-load: %7d rules: %8.1f ms (%.2f µs per rule), peak RSS %6.1f MB",
                         count, best * 1000, best / Double(count) * 1e6, Double(peakResidentBytes()) / 1e6))
        }
        if let first = perRule.first, let last = perRule.last {
            print(String(format: "config-load: time per rule at 100,000 / at 1,000: %.2f (1.00 is linear)", last / first))
        }
    }

    /// Loads a 10,000-rule tree once, then `reloads` more times, comparing resident memory.
    ///
    /// The reading threads' malloc arenas settle at a few megabytes more than one load needs
    /// (the same after 100 loads as after 1,000), so a leak shows as growth that goes on: the
    /// check compares the second half of the reloads with the first, and fails when the second
    /// half alone grew by more than 5 MB.
    static func measureReloads(base: String, reloads: Int) throws {
        let directory = base + "/reload-10000"
        try generate(directory: directory, rules: 10_000)
        // Each load is followed by what the daemon does after every load: freed memory handed
        // back (the reading threads' arenas keep it otherwise).
        func reload() throws {
            _ = try load(directory, expecting: 10_000)
            FreedMemory.release()
        }
        try reload()
        let afterFirst = residentBytes()
        for _ in 0..<reloads / 2 { try reload() }
        let afterHalf = residentBytes()
        for _ in reloads / 2..<reloads { try reload() }
        let afterLast = residentBytes()
        let growth = afterLast - afterHalf
        print(String(format: "config-load: RSS after the first load of 10,000 rules %.1f MB, after %d more loads %.1f MB, "
                     + "after %d %.1f MB; second half %+.2f MB (limit +5 MB)",
                     Double(afterFirst) / 1e6, reloads / 2, Double(afterHalf) / 1e6, reloads, Double(afterLast) / 1e6,
                     Double(growth) / 1e6))
        if growth > allowedGrowth {
            print("config-load: FAIL: resident memory grew by more than 5 MB over the last \(reloads - reloads / 2) of \(reloads) reloads")
            exit(1)
        }
    }

    /// Loads the tree in `directory`; exits 1 unless it gives `count` rules and no errors.
    static func load(_ directory: String, expecting count: Int) throws -> Int {
        let (configuration, diagnostics) = ConfigurationLoader.load(mainFile: directory + "/pricewatch.toml", environment: [:], schemas: AdapterCatalog.schemas)
        guard let configuration, configuration.rules.count == count, !diagnostics.containsErrors else {
            print("config-load: FAIL: expected \(count) rules without errors, found \(configuration?.rules.count ?? 0); "
                  + (diagnostics.first.map(\.description) ?? "no diagnostics"))
            exit(1)
        }
        return configuration.rules.count
    }

    /// A main file with one replay provider and one stdout sink, and `rules` rules of every
    /// condition kind, 1,000 to a file.
    static func generate(directory: String, rules: Int) throws {
        try FileManager.default.createDirectory(atPath: directory + "/rules.d", withIntermediateDirectories: true)
        try "symbol,time,price,previous_close\nSYM0,2024-10-02T13:30:00Z,100.00,99.00\n"
            .write(toFile: directory + "/quotes.csv", atomically: true, encoding: .utf8)
        try """
            interval = "1m"
            retention = "30d"

            [providers.replay]
            type = "replay"
            file = "quotes.csv"

            [sinks.console]
            type = "stdout"

            """.write(toFile: directory + "/pricewatch.toml", atomically: true, encoding: .utf8)
        for file in 0..<((rules + rulesPerFile - 1) / rulesPerFile) {
            var text = ""
            for index in (file * rulesPerFile)..<min(rules, (file + 1) * rulesPerFile) {
                text += "[[rule]]\nid = \"rule-\(index)\"\nsymbol = \"SYM\(index % 5_000)\"\n"
                switch index % 5 {
                case 0: text += "above = \(100 + index % 300).25\n"
                case 1: text += "below = \(50 + index % 100)\nrearm = 0.5\n"
                case 2: text += "rise = 5\nfrom = \"1h\"\ncooldown = \"30m\"\n"
                case 3: text += "fall = 2.5\nnotify = [\"console\"]\n"
                default: text += "crosses = \(200 + index % 50)\nmessage = \"{{symbol}} crossed {{price}}\"\n"
                }
                text += "\n"
            }
            try text.write(toFile: directory + "/rules.d/rules-\(String(format: "%04d", file)).toml", atomically: true, encoding: .utf8)
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Resident memory now, from `/proc/self/statm`.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The process's peak resident memory so far.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }

    static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
    }
}
