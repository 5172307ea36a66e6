import PriceWatchCore

/// A one-line chart of prices with the eight block heights `▁▂▃▄▅▆▇█`: the watchlist's view
/// of the day.
public enum Sparkline {
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// `values` (oldest first) in at most `width` characters: with more values than
    /// characters, each character shows the last value of its share. Flat prices draw the
    /// middle block; no values draw nothing.
    public static func render(_ values: [ExactDecimal], width: Int) -> String {
        guard !values.isEmpty, width > 0 else { return "" }
        let count = min(width, values.count)
        let sampled = (0..<count).map { index in values[(index + 1) * values.count / count - 1] }
        guard let low = sampled.min(), let high = sampled.max(), high > low else {
            return String(repeating: blocks[3], count: count)
        }
        let span = Double(high.scaled - low.scaled)
        return String(sampled.map { value in
            blocks[min(7, Int((Double(value.scaled - low.scaled) / span * 7).rounded()))]
        })
    }
}
