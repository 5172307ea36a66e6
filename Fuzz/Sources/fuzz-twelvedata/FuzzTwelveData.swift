import FuzzSupport
import PriceWatchCore
import PriceWatchProviders

/// Twelve Data's decoder, for one symbol and for a batch.
@main
enum FuzzTwelveDataTarget {
    static func main() {
        runFuzzer { data, size in
            guard let data else { return 0 }
            return fuzzTwelveData(data, size)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTwelveData(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    for status in FuzzInput.statuses {
        let response = input.response(status: status)
        _ = try? TwelveDataDecoder.decode(response, requested: ["AAPL"])
        _ = try? TwelveDataDecoder.decode(response, requested: ["AAPL", "MSFT", "INVALID"])
    }
    return 0
}
