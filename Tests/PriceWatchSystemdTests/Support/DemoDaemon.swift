import PriceWatchTestKit

/// A small daemon configuration in a temporary directory: a replay provider polled every
/// second over symbol X, one rule crossing 15, alerts on standard output as JSON.
struct DemoDaemon {
    let directory: TemporaryDirectory

    init(prices: [String] = ["10", "20", "10", "20", "10", "20", "10", "20"]) throws {
        directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            interval = "1s"
            [providers.replay]
            type = "replay"
            file = "prices.csv"
            [sinks.out]
            type = "stdout"
            format = "json"
            """)
        let rows = prices.enumerated().map { "X,\(1_727_875_800 + $0.offset * 60),\($0.element)" }
        try directory.write("prices.csv", (["symbol,time,price"] + rows).joined(separator: "\n") + "\n")
        try directory.write("rules.d/x.toml", Self.oneRule)
        // For reloads: a valid second rule, and an invalid rule ('rearm' needs a distance).
        try directory.write("alternatives/next.toml", Self.oneRule + "\n" + Self.secondRule)
        try directory.write("alternatives/broken.toml", Self.oneRule + "rearm = 1\n")
    }

    static let oneRule = "[[rule]]\nid = \"x-crosses-15\"\nsymbol = \"X\"\ncrosses = 15\n"
    static let secondRule = "[[rule]]\nid = \"x-above-18\"\nsymbol = \"X\"\nabove = 18\n"

    var path: String { directory.path }

    /// Makes the next reload valid (two rules) or invalid.
    func prepareReload(valid: Bool) throws {
        try directory.write("rules.d/x.toml", valid ? Self.oneRule + "\n" + Self.secondRule : Self.oneRule + "rearm = 1\n")
    }
}
