import PriceWatchCore

/// Sample domain values for the store tests.
enum Fixtures {
    /// A decimal from its text (the tests only use valid literals).
    static func decimal(_ text: String) throws -> ExactDecimal {
        try ExactDecimal(parsing: text)
    }

    /// An instant `seconds` after a fixed trading day's open (2024-10-02T13:30:00Z).
    static func time(_ seconds: Int64) -> Timestamp {
        Timestamp(milliseconds: 1_727_875_800_000 + seconds * 1000)
    }

    /// A quote with only the required fields.
    static func quote(_ symbol: String = "AAPL", price: String = "225.70", at seconds: Int64) throws -> Quote {
        Quote(symbol: symbol, price: try decimal(price), time: time(seconds))
    }

    /// An alert with every optional field set, or none.
    static func alert(id: String, rule: String = "aapl-200", symbol: String = "AAPL", at seconds: Int64 = 0,
                      complete: Bool = true) throws -> Alert {
        Alert(
            id: id, rule: rule, symbol: symbol, provider: complete ? "yahoo" : nil,
            condition: complete ? "fall 3% from previous close" : "above 200",
            price: try decimal("3.135"), currency: complete ? "USD" : nil, time: time(seconds),
            base: complete ? try decimal("3.3") : nil, change: complete ? try decimal("-5") : nil,
            direction: complete ? "down" : nil, message: "\(symbol) at 3.135 (rule \(rule))")
    }

    /// A commit of one alert and nothing else.
    static func commit(_ alert: Alert, sinks: [String] = ["stdout/console", "webhook/ops"],
                       now seconds: Int64 = 0, provider: String = "yahoo") -> StoreCommit {
        StoreCommit(provider: provider, alerts: [PendingAlert(alert: alert, sinks: sinks)], now: time(seconds))
    }
}
