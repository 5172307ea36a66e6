import Foundation
import FuzzSupport
import PriceWatchConfig
import PriceWatchCore

/// A trading-calendar file (`calendars/*.toml`, `calendars.d/*.toml`) through the reader, and,
/// when it reads, through the engine: a year of sessions and a status at a few instants.
@main
enum FuzzCalendarTarget {
    static func main() {
        runFuzzer { data, size in
            guard let data else { return 0 }
            return fuzzCalendar(data, size)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCalendar(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let (file, diagnostics) = CalendarFileReader.read(text: text, path: "fuzz.toml")
    checkOneLine(diagnostics)
    // Issue 29: as an operator's override, through what `check` and `market` both use.
    let overrides = fuzzDirectory + "/calendars.d"
    try? FileManager.default.createDirectory(atPath: overrides, withIntermediateDirectories: true)
    if (try? Data(text.utf8).write(to: URL(fileURLWithPath: overrides + "/fuzz.toml"))) != nil {
        let checked = CalendarLibrary.check(shipped: nil, overrides: overrides)
        checkOneLine(checked)
        if file == nil, !checked.containsErrors { fatalError("check passed a file the reader refuses") }
    }
    guard let file else { return 0 }
    if ControlCharacters.contains(file.market.rawValue) || file.market.rawValue.utf8.count > 16 {
        fatalError("a market code the reader should have refused: \(ControlCharacters.shown(file.market.rawValue))")
    }
    let directory = fuzzDirectory + "/calendars"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    guard (try? Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/fuzz.toml"))) != nil else { return 0 }
    let (calendars, _) = CalendarLibrary.load(shipped: directory, overrides: nil)
    guard let calendar = calendars.calendar(for: file.market),
          let first = CivilDate(year: 2024, month: 1, day: 1), let last = CivilDate(year: 2024, month: 12, day: 31) else { return 0 }
    _ = calendar.sessions(from: first, through: last)
    for seconds: Int64 in [0, 1_700_000_000, 1_735_689_600, 4_102_444_800] {
        _ = calendar.status(at: Timestamp(seconds: seconds))
    }
    return 0
}

/// Every diagnostic is one line of bounded length (a trap is a finding).
func checkOneLine(_ diagnostics: [Diagnostic]) {
    for diagnostic in diagnostics {
        let line = diagnostic.description
        if ControlCharacters.contains(line) { fatalError("a diagnostic with a raw control character: \(ControlCharacters.quoted(line))") }
        if line.utf8.count > 2_000 { fatalError("a diagnostic of \(line.utf8.count) bytes: \(ControlCharacters.shown(line, limit: 300))") }
    }
}
