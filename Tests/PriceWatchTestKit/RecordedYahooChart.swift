import Foundation

/// Yahoo's recorded one-minute AAPL chart of 2024-10-02 (`Tests/Fixtures/providers/yahoo`)
/// with every time moved, so a daemon running now reads it as recent prices: its
/// `timestamp`s and `meta.regularMarketTime` shifted alike, nothing else changed.
public enum RecordedYahooChart {
    public static let path = "Tests/Fixtures/providers/yahoo/chart_AAPL_1m_2024-10-02.json"

    /// The chart with its first price at `start` (seconds).
    public static func aapl(startingAt start: Int) throws -> Data {
        try aapl { first, _ in start - first }
    }

    /// The chart with its last price at `end` (seconds).
    public static func aapl(endingAt end: Int) throws -> Data {
        try aapl { _, last in end - last }
    }

    /// The chart shifted by what `shift` answers for its first and last times.
    private static func aapl(shift: (_ first: Int, _ last: Int) -> Int) throws -> Data {
        let recorded = try Data(contentsOf: URL(fileURLWithPath: RepositoryFiles.path(path)))
        guard var root = try JSONSerialization.jsonObject(with: recorded) as? [String: Any],
              var chart = root["chart"] as? [String: Any], var results = chart["result"] as? [[String: Any]],
              let times = results.first?["timestamp"] as? [Int], let first = times.first, let last = times.last else {
            throw UnexpectedShape()
        }
        let offset = shift(first, last)
        results[0]["timestamp"] = times.map { $0 + offset }
        if var meta = results[0]["meta"] as? [String: Any], let time = meta["regularMarketTime"] as? Int {
            meta["regularMarketTime"] = time + offset
            results[0]["meta"] = meta
        }
        chart["result"] = results
        root["chart"] = chart
        return try JSONSerialization.data(withJSONObject: root)
    }

    /// The recorded file is not a chart with times.
    public struct UnexpectedShape: Error {}
}
