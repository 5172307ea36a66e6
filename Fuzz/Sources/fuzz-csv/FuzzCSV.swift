import FuzzSupport
import PriceWatchCore

/// The backtest CSV reader: whole, and fed in two chunks split at a point the input chooses
/// (rows and quoted fields across chunk boundaries). It must never crash, whatever the bytes.
///
/// Issue 29: the input may also be blown up into a huge field (one of its bytes repeated past
/// ``PriceSeriesReader/maximumLineBytes``, where the input says), since libFuzzer's inputs stay
/// small; and what the reader gives must be safe to print and to use: every diagnostic one short
/// line without a raw control character, every symbol and currency without one, symbols bounded.
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
    var bytes = FuzzInput(data, size).bytes
    // An odd first byte asks for a huge field: the byte at a place the next bytes choose,
    // repeated past the line bound.
    if bytes.count >= 4, bytes[0] & 1 == 1 {
        let at = Int(bytes[1]) % bytes.count
        let count = PriceSeriesReader.maximumLineBytes + Int(bytes[2]) * 257
        bytes.insert(contentsOf: repeatElement(bytes[3], count: count), at: at)
    }
    var whole = PriceSeriesReader(path: "fuzz.csv")
    whole.feed(bytes)
    check(whole.finish())
    if let first = bytes.first, bytes.count > 1 {
        let split = Int(first) % bytes.count
        var chunked = PriceSeriesReader(path: "fuzz.csv")
        chunked.feed(bytes[..<split])
        chunked.feed(bytes[split...])
        check(chunked.finish())
    }
    return 0
}

/// The properties of what the reader gives (a trap is a finding).
func check(_ result: (series: PriceSeries, diagnostics: [Diagnostic])) {
    for diagnostic in result.diagnostics {
        let line = diagnostic.description
        if ControlCharacters.contains(line) { fatalError("a diagnostic with a raw control character: \(ControlCharacters.quoted(line))") }
        if line.utf8.count > 1_000 { fatalError("a diagnostic of \(line.utf8.count) bytes: \(ControlCharacters.shown(line, limit: 300))") }
    }
    for symbol in result.series.symbols where ControlCharacters.contains(symbol) || symbol.count > PriceSeriesReader.maximumSymbolLength {
        fatalError("a symbol the reader should have refused: \(ControlCharacters.shown(symbol))")
    }
    for currency in result.series.currencies where ControlCharacters.contains(currency) {
        fatalError("a currency with a control character: \(ControlCharacters.quoted(currency))")
    }
}
