import PriceWatchCore
import PriceWatchSinks

/// Alerts the webhook tests send, with every field the payloads carry.
enum WebhookFixtures {
    /// A percent rule: base and change set, a message with characters that need escaping.
    static let fall = Alert(
        id: "5f0c6a0e3d1b4b1e9a7c2d4e6f8a0b1c", rule: "aapl-drop", symbol: "AAPL", provider: "yahoo",
        condition: "fall 3% from previous close", price: decimal("219.42"), currency: "USD",
        time: Timestamp(seconds: 1_727_879_460), base: decimal("226.21"), change: decimal("-3.0016"),
        direction: nil, message: "AAPL fell 3.00% to 219.42 € <now> & \"more\"\nsecond line")

    /// A crossing without currency or provider (a backtest-like alert): those are `null`.
    static let crossing = Alert(
        id: "00000000000000000000000000000abc", rule: "btc-100k", symbol: "BTC-USD", provider: nil,
        condition: "crosses 100000", price: decimal("100000.5"), currency: nil,
        time: Timestamp(seconds: 1_733_356_800), base: nil, change: nil,
        direction: "up", message: "BTC-USD 100000.50: crosses 100000 (up) (rule btc-100k)")

    static func decimal(_ text: String) -> ExactDecimal { ExactDecimal(text) ?? .zero }

    /// The exact bodies each format sends for ``fall`` (docs/configuration.md shows the same).
    static let fallBodies: [WebhookFormat: String] = [
        .json: #"{"version":1,"type":"alert.fired","id":"5f0c6a0e3d1b4b1e9a7c2d4e6f8a0b1c","rule":"aapl-drop","symbol":"AAPL","condition":"fall 3% from previous close","direction":null,"price":219.42,"currency":"USD","time":"2024-10-02T14:31:00Z","base":226.21,"change":-3.0016,"provider":"yahoo","message":"AAPL fell 3.00% to 219.42 € <now> & \"more\"\nsecond line"}"#,
        .slack: #"{"text":"AAPL fell 3.00% to 219.42 € &lt;now&gt; &amp; \"more\"\nsecond line"}"#,
        .discord: #"{"content":"AAPL fell 3.00% to 219.42 € <now> & \"more\"\nsecond line","allowed_mentions":{"parse":[]}}"#,
        .ntfy: "AAPL fell 3.00% to 219.42 € <now> & \"more\"\nsecond line",
    ]

    /// The headers each format sends for ``fall`` before the custom and `webhook-*` ones.
    static let fallHeaders: [WebhookFormat: [HTTPHeader]] = [
        .json: [HTTPHeader("Content-Type", "application/json")],
        .slack: [HTTPHeader("Content-Type", "application/json")],
        .discord: [HTTPHeader("Content-Type", "application/json")],
        .ntfy: [
            HTTPHeader("Content-Type", "text/plain; charset=utf-8"),
            HTTPHeader("Title", "AAPL fall 3% from previous close"),
            HTTPHeader("Tags", "chart_with_downwards_trend,aapl-drop"),
            HTTPHeader("Priority", "high"),
        ],
    ]
}
