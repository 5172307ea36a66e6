import FuzzSupport
import PriceWatchCore
import PriceWatchProviders

/// Coinbase's spot price decoder.
@main
enum FuzzCoinbaseTarget {
    static func main() {
        runFuzzer { data, size in
            guard let data else { return 0 }
            return fuzzCoinbase(data, size)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCoinbase(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    for status in FuzzInput.statuses {
        _ = try? CoinbaseDecoder.quote(input.response(status: status), symbol: "BTC-USD", received: FuzzInput.now)
    }
    return 0
}
