/// The engine's state of one ``BarTrack``: the forming bar, and every series' computation
/// over the closed bars before it.
///
/// Memory is bounded by the track's longest window (each computation keeps at most its
/// window of inputs), never by how many bars have passed.
public struct BarTrackState: Sendable {
    /// The series' computations, in the track's series order.
    var computations: [any SeriesComputation]
    /// Each series' value at the last closed bar (nil while undefined).
    public private(set) var values: [Double?]
    /// Each series' values at past bars, kept for percent rules' `from` windows (empty for a
    /// series no such rule reads).
    var valueHistories: [SymbolHistory]
    /// Closed bars taken in.
    public private(set) var closedBars = 0
    /// The forming bar's start (ms), nil when no bar is forming.
    public private(set) var formingStart: Int64?
    /// The forming bar's last quote: its close, and the time and price an alert carries.
    public private(set) var formingQuote: Quote?
    /// The forming bar's volume, when known.
    var formingVolume: Double?
    /// The day's running volume at the last live quote that reported one (see
    /// ``takeDayVolume(_:startsBar:)``).
    var lastDayVolume: Double?
    /// When (wall clock) the forming bar's last quote was received; nil in backtests.
    var formedAt: Timestamp?
    /// The time of the last closed bar's last quote.
    public private(set) var lastClosedTime: Timestamp?

    /// The track's plan as the bar close reads it, kept here so that closing a bar copies
    /// no ``BarTrack``: what each series reads, and the `from` windows of its past values.
    let inputs: [BarInput]
    let valueWindows: [RuleDuration?]
    let keepsValues: Bool

    init(track: BarTrack) {
        inputs = track.inputs
        valueWindows = track.valueWindows
        keepsValues = track.keepsValues
        computations = track.series.map { $0.indicator.makeComputation($0.arguments) }
        values = Array(repeating: nil, count: track.series.count)
        valueHistories = Array(repeating: SymbolHistory(), count: track.series.count)
    }

    /// The input a series reads of a bar.
    @inline(__always)
    static func input(_ input: BarInput, close: Double, volume: Double?) -> Double? {
        input == .close ? close : volume
    }

    /// Takes a quote of the bar starting at `start` (the caller closes the forming bar first
    /// when `start` is later).
    mutating func form(_ quote: Quote, start: Int64, volume: Double?) {
        formingStart = start
        formingQuote = quote
        if let volume { formingVolume = volume }
    }

    /// Adds a live quote's share of the day's volume to the forming bar: how much the day's
    /// running total grew since the previous quote (all of it when the total fell: a new day
    /// began). The bar's volume stays unknown (nil) when any of its quotes' shares is: the
    /// first quote after a start, or one without a day volume, so a bar never shows part of
    /// its volume as the whole.
    mutating func takeDayVolume(_ dayVolume: Double?, startsBar: Bool) {
        var share: Double?
        if let dayVolume, let last = lastDayVolume { share = dayVolume >= last ? dayVolume - last : dayVolume }
        lastDayVolume = dayVolume
        if startsBar {
            formingVolume = share
        } else {
            formingVolume = formingVolume.flatMap { total in share.map { total + $0 } }
        }
    }

    /// Closes the forming bar: every computation takes its input; returns the closed bar's
    /// last quote (nil when no bar was forming).
    mutating func closeBar() -> Quote? {
        guard let quote = formingQuote else { return nil }
        let close = quote.price.doubleValue, volume = formingVolume
        // Through buffers: one uniqueness check per array and bar, not one per series.
        values.withUnsafeMutableBufferPointer { values in
            computations.withUnsafeMutableBufferPointer { computations in
                for index in computations.indices {
                    guard let x = Self.input(inputs[index], close: close, volume: volume) else {
                        values[index] = nil
                        continue
                    }
                    values[index] = computations[index].append(x)
                }
            }
        }
        if keepsValues {
            for index in values.indices {
                guard let window = valueWindows[index], let value = values[index], let exact = ExactDecimal(fast: value) else { continue }
                valueHistories[index].append(time: quote.time, price: exact)
                valueHistories[index].trim(window: window)
            }
        }
        closedBars += 1
        lastClosedTime = quote.time
        formingStart = nil
        formingQuote = nil
        formingVolume = nil
        formedAt = nil
        return quote
    }

    /// Each series' value if the forming bar closed now (`trigger = "tick"`).
    func previewValues() -> [Double?] {
        guard let quote = formingQuote else { return values }
        let close = quote.price.doubleValue
        return computations.indices.map { index in
            Self.input(inputs[index], close: close, volume: formingVolume).flatMap(computations[index].value(ifNext:))
        }
    }
}

extension ExactDecimal {
    /// A series value rounded to 8 decimals by arithmetic (the engine's per-bar path; the
    /// shortest-representation conversion is for providers' numbers). Nil when out of range.
    public init?(fast value: Double) {
        let scaled = (value * Double(Self.unit)).rounded()
        guard scaled.isFinite, abs(scaled) < 9.2e18 else { return nil }
        self.init(scaled: Int64(scaled))
    }
}
