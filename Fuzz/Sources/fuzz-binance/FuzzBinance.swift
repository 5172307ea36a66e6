import FuzzSupport
import PriceWatchCore
import PriceWatchProviders

/// Binance's ticker decoder (one symbol and a batch) and its invalid-symbol check.
@main
enum FuzzBinanceTarget {
    static func main() {
        runFuzzer { data, size in
            guard let data else { return 0 }
            return fuzzBinance(data, size)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinance(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    for status in FuzzInput.statuses {
        let response = input.response(status: status)
        _ = try? BinanceDecoder.decode(response, requested: ["LTCBTC"])
        expectSameBothWays("binance") { scanning throws(ProviderError) in
            try BinanceDecoder.decode(response, requested: ["BNBBTC", "ETHBTC", "LTCBTC"], scanning: scanning)
        }
        _ = BinanceDecoder.rejectsSymbol(response)
    }
    return 0
}
