/// A provider that can look symbols up by ticker or company name (`pricewatch search`).
///
/// Contract:
/// - ``search(_:)`` sends one request for `query` and returns the service's matches in the
///   service's order (best first); no match is an empty array, not an error.
/// - Failures are ``ProviderError``s with the same kinds as quote fetches; providers never
///   retry or sleep.
/// - Matches the service describes without a symbol (news, companies not listed) are left out.
public protocol SymbolSearching: Sendable {
    func search(_ query: String) async throws(ProviderError) -> [SymbolMatch]
}

/// One answer of a symbol search. Every field but `symbol` is optional, since services differ
/// in what they give.
public struct SymbolMatch: Sendable, Hashable {
    /// The symbol to write in a rule for this provider (`AAPL`, `BTC-USD`).
    public var symbol: String
    /// The instrument's name (`Apple Inc.`).
    public var name: String?
    /// The service's exchange code (`NMS`, `CCC`).
    public var exchange: String?
    /// The kind of instrument as the service names it (`EQUITY`, `ETF`, `Common Stock`).
    public var type: String?

    public init(symbol: String, name: String? = nil, exchange: String? = nil, type: String? = nil) {
        self.symbol = symbol
        self.name = name
        self.exchange = exchange
        self.type = type
    }
}
