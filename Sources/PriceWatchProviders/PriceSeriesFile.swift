import Foundation
import PriceWatchCore

/// Reads a backtest/replay CSV from disk in chunks, so a large file is never held whole in
/// memory next to its parsed rows.
public enum PriceSeriesFile {
    /// The series, or every diagnostic (errors name `path:line`). An unreadable file is one
    /// diagnostic naming the path.
    public static func read(path: String, chunkSize: Int = 1 << 20) -> (series: PriceSeries?, diagnostics: [Diagnostic]) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
            return (nil, [.error("cannot read the price data: \(reason)", path: path)])
        }
        defer { try? handle.close() }
        var reader = PriceSeriesReader(path: path)
        do {
            while let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty {
                reader.feed(chunk)
            }
        } catch {
            return (nil, [.error("cannot read the price data: \(error.localizedDescription)", path: path)])
        }
        let (series, diagnostics) = reader.finish()
        return (diagnostics.containsErrors ? nil : series, diagnostics)
    }
}
