import Foundation
import PriceWatchConfig
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// Every session open, close and break of every shipped market, 2015-2030, agrees with the
/// `exchange-calendars` Python package (4.13.2, installed by `scripts/setup`): an independent
/// implementation. A difference is reported as market, date, ours vs theirs.
@Suite("Calendar agreement with exchange-calendars")
struct CalendarAgreementTests {
    static let firstYear = 2015
    static let lastYear = 2030
    /// exchange-calendars' code of each market, and the last year it has data for when that is
    /// before `lastYear` (its Shanghai holidays are recorded through 2026).
    static let markets: [(ours: String, theirs: String, lastYear: Int?)] = [
        ("XNYS", "XNYS", nil), ("XNAS", "XNAS", nil), ("XLON", "XLON", nil), ("XETR", "XETR", nil),
        ("XPAR", "XPAR", nil), ("XSWX", "XSWX", nil), ("XTKS", "XTKS", nil), ("XHKG", "XHKG", nil),
        ("XSHG", "XSHG", 2026), ("XTSE", "XTSE", nil), ("XASX", "XASX", nil), ("CMES", "CMES", nil),
        ("24/5", "24/5", nil), ("24/7", "24/7", nil),
    ]

    @Test("0 differences for every market and year")
    func agreement() async throws {
        #expect(ShippedCalendars.loaded.diagnostics.isEmpty, "\(ShippedCalendars.loaded.diagnostics)")
        let theirs = try await Self.exchangeCalendarsSessions()
        // Seconds of synchronous work in a debug build: on a thread of its own, not one of the
        // few threads every other suite's asynchronous waits share.
        let (compared, differences) = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Self.compare(theirs)) }.start()
        }
        print("calendar agreement: \(compared) market-days compared, \(differences.count) differences")
        #expect(differences.isEmpty, "\(differences.count) differences:\n\(differences.prefix(200).joined(separator: "\n"))")
    }

    /// Every market-day of ours and theirs: how many, and the ones that differ.
    static func compare(_ theirs: [String: [String: String]]) -> (compared: Int, differences: [String]) {
        var differences: [String] = []
        var compared = 0
        for market in Self.markets {
            let code = MarketIdentifier(market.ours)
            if ShippedCalendars.calendars.calendar(for: code) == nil { differences.append("\(code): no calendar") }
            let last = market.lastYear ?? Self.lastYear
            guard let first = CivilDate(year: Self.firstYear, month: 1, day: 1),
                  let end = CivilDate(year: last, month: 12, day: 31) else { continue }
            var ours: [String: String] = [:]
            for session in ShippedCalendars.calendars.sessions(of: code, from: first, through: end) {
                ours[session.date.description] = Self.describe(session)
            }
            let their = theirs[market.theirs] ?? [:]
            if their.isEmpty { differences.append("\(market.theirs): exchange-calendars gave no sessions") }
            for date in Set(ours.keys).union(their.keys).sorted() {
                compared += 1
                let mine = ours[date] ?? "closed", other = their[date] ?? "closed"
                if mine != other { differences.append("\(market.ours) \(date): ours \(mine) vs theirs \(other)") }
            }
        }
        return (compared, differences)
    }

    static func describe(_ session: TradingSession) -> String {
        func minute(_ instant: Timestamp?) -> String {
            guard let instant else { return "-" }
            return String(instant.rfc3339.dropLast(4)) + "Z"    // 2015-01-02T14:30Z
        }
        return "\(minute(session.open)) \(minute(session.close)) \(minute(session.breakStart)) \(minute(session.breakEnd))"
    }

    /// Market code to date to "open close break_start break_end", from the dump script.
    static func exchangeCalendarsSessions() async throws -> [String: [String: String]] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("xcals-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("xcals-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        let errorHandle = try FileHandle(forWritingTo: errors)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", RepositoryFiles.path("scripts/calendars/dump-exchange-calendars.py"),
                             String(firstYear), String(lastYear)]
            + markets.map { market -> String in
                guard let year = market.lastYear else { return market.theirs }
                return "\(market.theirs):\(year)"
            }
        process.standardOutput = handle
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        let status = try await TestProcesses.run(process, "the exchange-calendars dump", timeout: .seconds(600))
        try handle.close()
        try errorHandle.close()
        let problems = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw DumpFailed(description: "the exchange-calendars dump failed (exit \(status)); is exchange-calendars==4.13.2 installed for python3 (scripts/setup)? \(problems.suffix(2000))")
        }
        let text = try String(contentsOf: output, encoding: .utf8)
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: parse(text)) }.start()
        }
    }

    static func parse(_ text: String) -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 6 else { continue }
            result[String(fields[0]), default: [:]][String(fields[1])] = fields[2...].joined(separator: " ")
        }
        return result
    }

    struct DumpFailed: Error, CustomStringConvertible {
        let description: String
    }
}
