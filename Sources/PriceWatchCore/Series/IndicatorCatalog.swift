/// Every indicator a rule may name, one line each: what the rule reader, the engine, the
/// backtest, `pricewatch rules` and the charts find series by.
public enum IndicatorCatalog {
    /// The indicators, in the order of `docs/rules.md`'s table.
    public static let all: [any Indicator] = [
        PriceIndicator(),
        SimpleMovingAverage(),
        ExponentialMovingAverage(),
        WeightedMovingAverage(),
        RelativeStrengthIndex(),
        MACD(.macd),
        MACD(.signal),
        MACD(.histogram),
        BollingerBand(.upper),
        BollingerBand(.middle),
        BollingerBand(.lower),
        ChannelExtreme(highest: true),
        ChannelExtreme(highest: false),
        RateOfChange(),
        VolumeIndicator(average: false),
        VolumeIndicator(average: true),
    ]

    /// Every indicator's name.
    public static let names: [String] = all.map(\.name)

    /// The indicator named `name`, if any.
    public static func indicator(named name: String) -> (any Indicator)? {
        all.first { $0.name == name }
    }
}
