/// `volume`: the bar's traded volume, and `sma_volume(n)`: its mean over the last n bars.
/// Defined only where the source reports volume (a backtest file's `volume` column, a
/// provider's candles); a bar without volume leaves the series undefined.
public struct VolumeIndicator: Indicator {
    public let isAverage: Bool

    public init(average: Bool) { isAverage = average }

    public var name: String { isAverage ? "sma_volume" : "volume" }
    public var parameters: [IndicatorParameter] { isAverage ? [.length()] : [] }
    public var input: BarInput { .volume }
    public var display: IndicatorDisplay { .histogram }
    public var summary: String {
        isAverage ? "the mean volume of the last n bars, this bar's included" : "the bar's traded volume, where the source gives it"
    }
    public func warmUpBars(_ arguments: [Double]) -> Int { isAverage ? Int(arguments[0]) : 1 }
    public func makeComputation(_ arguments: [Double]) -> any SeriesComputation {
        isAverage ? SimpleMovingAverage.Mean(length: Int(arguments[0])) : PriceIndicator.Identity()
    }
}
