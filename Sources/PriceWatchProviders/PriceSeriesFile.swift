#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PriceWatchCore

/// Reads a backtest/replay CSV from disk in chunks, so a large file is never held whole in
/// memory next to its parsed rows.
public enum PriceSeriesFile {
    /// The series, or every diagnostic (errors name `path:line`). An unreadable file, or one
    /// that is not a regular file (`/dev/zero` would be read forever), is one diagnostic naming
    /// the path.
    public static func read(path: String, chunkSize: Int = 1 << 20) -> (series: PriceSeries?, diagnostics: [Diagnostic]) {
        let descriptor: Int32
        switch RegularFile.opening(path) {
        case .success(let opened): descriptor = opened
        case .failure(let failure): return (nil, [.error("cannot read the price data: \(failure.reason)", path: path)])
        }
        defer { close(descriptor) }
        var reader = PriceSeriesReader(path: path)
        var chunk = [UInt8](repeating: 0, count: max(chunkSize, 1))
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return (nil, [.error("cannot read the price data: \(String(cString: strerror(errno)))", path: path)])
            }
            if count == 0 { break }
            chunk.withUnsafeBufferPointer { reader.feed($0[0..<count]) }
        }
        let (series, diagnostics) = reader.finish()
        return (diagnostics.containsErrors ? nil : series, diagnostics)
    }
}
