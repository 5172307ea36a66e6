/// Where quotes come from: one symbol from one provider. Repeat detection and window history
/// are kept per source, since two providers may quote the same symbol on different venues.
public struct QuoteSource: Sendable, Hashable, CustomStringConvertible {
    public var provider: String
    public var symbol: String

    public init(provider: String, symbol: String) {
        self.provider = provider
        self.symbol = symbol
    }

    public var description: String { "\(provider) \(symbol)" }
}
