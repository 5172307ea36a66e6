import FuzzSupport
import PriceWatchCore
import PriceWatchProviders

/// Every Yahoo decoder: quotes, chart, search, error answers, the crumb and the cookie.
@main
enum FuzzYahooTarget {
    static func main() {
        runFuzzer { data, size in
            guard let data else { return 0 }
            return fuzzYahoo(data, size)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYahoo(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    for status in FuzzInput.statuses {
        let response = input.response(status: status)
        expectSameBothWays("yahoo") { scanning throws(ProviderError) in
            try YahooQuoteDecoder.decode(response, requested: ["AAPL", "BABA", "BTC-USD"], scanning: scanning)
        }
        _ = YahooChartDecoder.decode(response, symbol: "AAPL", now: FuzzInput.now)
        _ = try? YahooSearchDecoder.decode(response)
        _ = YahooErrorDecoder.description(response)
        _ = YahooErrorDecoder.rejectsSession(response)
        _ = try? YahooErrorDecoder.crumb(response)
        _ = YahooErrorDecoder.cookie(response)
    }
    return 0
}
