import FuzzSupport
import PriceWatchCore
import PriceWatchProviders

/// Finnhub's quote and search decoders.
@main
enum FuzzFinnhubTarget {
    static func main() {
        runFuzzer { data, size in
            guard let data else { return 0 }
            return fuzzFinnhub(data, size)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFinnhub(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    for status in FuzzInput.statuses {
        let response = input.response(status: status)
        _ = try? FinnhubDecoder.quote(response, symbol: "AAPL")
        _ = try? FinnhubDecoder.search(response)
        _ = try? FinnhubCalendarDecoder.decode(response, symbol: "AAPL")
    }
    return 0
}
