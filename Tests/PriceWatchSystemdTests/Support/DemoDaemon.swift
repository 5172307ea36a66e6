import PriceWatchTestKit

/// A small daemon configuration in a temporary directory: a replay provider polled every
/// second over symbol X, one rule crossing 15, alerts on standard output as JSON.
struct DemoDaemon {
    let directory: TemporaryDirectory

    init(prices: [String] = ["10", "20", "10", "20", "10", "20", "10", "20"]) throws {
        directory = try TemporaryDirectory()
        try ReplayDaemonFiles.write(in: directory, prices: prices, rules: Self.oneRule)
        // For reloads: a valid second rule, and an invalid rule ('rearm' needs a distance).
        try directory.write("alternatives/next.toml", Self.oneRule + "\n" + Self.secondRule)
        try directory.write("alternatives/broken.toml", Self.oneRule + "rearm = 1\n")
    }

    static let oneRule = ReplayDaemonFiles.crossingRule
    static let secondRule = "[[rule]]\nid = \"x-above-18\"\nsymbol = \"X\"\nabove = 18\n"

    var path: String { directory.path }

    /// Makes the next reload valid (two rules) or invalid.
    func prepareReload(valid: Bool) throws {
        try directory.write("rules.d/x.toml", valid ? Self.oneRule + "\n" + Self.secondRule : Self.oneRule + "rearm = 1\n")
    }
}
