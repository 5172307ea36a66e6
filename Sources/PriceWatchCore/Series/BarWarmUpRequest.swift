/// A track that has fewer closed bars than its rules need: the symbol, provider and
/// timeframe the warm-up asks a chart endpoint for (`docs/rules.md`, "Warming up").
public struct BarWarmUpRequest: Sendable, Hashable {
    public var provider: String
    public var symbol: String
    public var timeframe: Timeframe
    /// Closed bars the rules need.
    public var bars: Int
    /// Closed bars the track has.
    public var closedBars: Int

    public init(provider: String, symbol: String, timeframe: Timeframe, bars: Int, closedBars: Int) {
        self.provider = provider
        self.symbol = symbol
        self.timeframe = timeframe
        self.bars = bars
        self.closedBars = closedBars
    }
}
