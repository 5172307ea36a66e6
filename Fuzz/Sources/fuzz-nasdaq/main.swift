import FuzzSupport
import PriceWatchCore
import PriceWatchProviders

/// Nasdaq's quote answer. Beyond no crash: a quote has a positive price, a time, USD; an error
/// names the endpoint and the symbol.
@main
enum FuzzNasdaqTarget {
    static func main() {
        runFuzzer { data, size in
            guard let data else { return 0 }
            return fuzzNasdaq(data, size)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNasdaq(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    for status in FuzzInput.statuses {
        switch NasdaqDecoder.fuzzDecode(input.response(status: status), symbol: "AAPL") {
        case .quote(let quote):
            guard quote.price.isPositive, quote.currency == "USD" else { fatalError("nasdaq: a quote that is not one: \(quote)") }
        case .error(let message):
            guard message.hasPrefix("nasdaq quote for AAPL") else { fatalError("nasdaq: an error that does not name the endpoint: \(message)") }
        case .other:
            break
        }
    }
    return 0
}
