import FuzzSupport
import PriceWatchCore
import PriceWatchProviders

/// Nasdaq's quote answer and its calendars' answers (dividends, earnings, splits). Beyond no
/// crash: a quote has a positive price, a time, USD; an event is of a symbol asked, of its
/// kind, with a positive amount or ratio; an error names the endpoint and the symbol or day.
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
        checkCalendars(input.response(status: status))
    }
    return 0
}

private func checkCalendars(_ response: HTTPResponse) {
    let asked: Set<String> = ["AAPL", "WMT"]
    guard let day = CivilDate(year: 2023, month: 11, day: 16) else { return }
    do {
        if case .events(let events) = try NasdaqCalendarDecoder.dividends(response, symbol: "AAPL") {
            for event in events {
                guard event.symbol == "AAPL", event.kind == .exDividend || event.kind == .dividendPayment,
                      event.amount?.isPositive == true, event.currency?.utf8.count == 3, event.source == "nasdaq" else {
                    fatalError("nasdaq dividends: an event that is not one: \(event)")
                }
            }
        }
    } catch {
        guard error.message.hasPrefix("nasdaq dividends for AAPL") else { fatalError("nasdaq dividends: an error that does not name the endpoint: \(error.message)") }
    }
    do {
        for event in try NasdaqCalendarDecoder.earnings(response, day: day, symbols: asked)
        where !asked.contains(event.symbol) || event.kind != .earnings || event.date != day {
            fatalError("nasdaq earnings: an event that is not one: \(event)")
        }
    } catch {
        guard error.message.hasPrefix("nasdaq earnings calendar of 2023-11-16") else { fatalError("nasdaq earnings: \(error.message)") }
    }
    do {
        for event in try NasdaqCalendarDecoder.splits(response, symbols: asked)
        where !asked.contains(event.symbol) || event.kind != .split || event.splitRatio.map({ !$0.new.isPositive || !$0.old.isPositive }) == true {
            fatalError("nasdaq splits: an event that is not one: \(event)")
        }
    } catch {
        guard error.message.hasPrefix("nasdaq splits calendar") else { fatalError("nasdaq splits: \(error.message)") }
    }
}
