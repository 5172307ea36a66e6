import FuzzSupport
import PriceWatchCore
import PriceWatchProviders

/// Kraken's ticker decoder.
@main
enum FuzzKrakenTarget {
    static func main() {
        runFuzzer { data, size in
            guard let data else { return 0 }
            return fuzzKraken(data, size)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKraken(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    for status in FuzzInput.statuses {
        _ = try? KrakenDecoder.quote(input.response(status: status), symbol: "XBT/EUR", received: FuzzInput.now)
    }
    return 0
}
