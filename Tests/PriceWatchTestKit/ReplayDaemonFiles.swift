/// The files of a small daemon for end-to-end tests: a replay provider polled every second over
/// symbol X (one price a minute from 2024-10-02T13:30:00Z), a SQLite state file, alerts on
/// standard output as JSON Lines, and `rules.d/x.toml` holding `rules`.
public enum ReplayDaemonFiles {
    /// One rule: X crosses 15.
    public static let crossingRule = "[[rule]]\nid = \"x-crosses-15\"\nsymbol = \"X\"\ncrosses = 15\n"

    public static func write(in directory: TemporaryDirectory, prices: [String], rules: String = crossingRule) throws {
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
        try directory.write("rules.d/x.toml", rules)
    }
}
