import FuzzSupport
import PriceWatchCore
import PriceWatchProviders

/// Yahoo's calendar module (`quoteSummary?modules=calendarEvents`). Beyond no crash: at most
/// one event of each kind, each on a real date, an estimated range that ends after it starts;
/// an error names the calendar and the symbol.
@main
enum FuzzYahooCalendarTarget {
    static func main() {
        runFuzzer { data, size in
            guard let data else { return 0 }
            return fuzzYahooCalendar(data, size)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYahooCalendar(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    for status in FuzzInput.statuses {
        let events: [CompanyEvent]
        do {
            events = try YahooCalendarDecoder.decode(input.response(status: status), symbol: "NVDA")
        } catch {
            guard error.message.hasPrefix("yahoo calendar for NVDA: ") else {
                fatalError("yahoo-calendar: an error that does not name the calendar: \(error.message)")
            }
            continue
        }
        guard Set(events.map(\.kind)).count == events.count else { fatalError("yahoo-calendar: a kind twice: \(events)") }
        for event in events {
            guard (1...9999).contains(event.date.year), CivilDate(parsing: event.date.description) == event.date else {
                fatalError("yahoo-calendar: a date that is not one: \(event.date)")
            }
            if let last = event.lastDate, last <= event.date { fatalError("yahoo-calendar: a range that ends before it starts") }
        }
    }
    return 0
}
