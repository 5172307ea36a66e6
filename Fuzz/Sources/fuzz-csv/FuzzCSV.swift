import FuzzSupport
import PriceWatchCore

/// The backtest CSV reader: whole, and fed in two chunks split at a point the input chooses
/// (rows and quoted fields across chunk boundaries). It must never crash, whatever the bytes.
@main
enum FuzzCSVTarget {
    static func main() {
        runFuzzer { data, size in
            guard let data else { return 0 }
            return fuzzCSV(data, size)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    var whole = PriceSeriesReader(path: "fuzz.csv")
    whole.feed(bytes)
    _ = whole.finish()
    if let first = bytes.first, bytes.count > 1 {
        let split = Int(first) % bytes.count
        var chunked = PriceSeriesReader(path: "fuzz.csv")
        chunked.feed(bytes[..<split])
        chunked.feed(bytes[split...])
        _ = chunked.finish()
    }
    return 0
}
