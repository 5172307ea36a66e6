import Foundation
import Logging
import PriceWatchCore
import PriceWatchSystemd
import PriceWatchTestKit
import Testing

/// `--log-target stderr` lines carry RFC 3339 UTC times (`...Z`), like every other time
/// pricewatch prints, not `StreamLogHandler`'s local time with a numeric offset.
@Suite struct StandardErrorLogHandlerTests {
    @Test func aLineHasTheUTCTimeLevelLabelSortedMetadataSourceAndMessage() {
        let event = LogEvent(level: .warning, message: "provider failing", metadata: nil, source: "PriceWatchEngine",
                             file: "f.swift", function: "f()", line: 1)
        let line = StandardErrorLogHandler.line(for: event, label: "pricewatch",
                                                metadata: ["symbol": "AAPL", "event": "provider-failing"],
                                                at: Timestamp(seconds: 1_727_879_460))
        #expect(line == "2024-10-02T14:31:00Z warning pricewatch: event=provider-failing symbol=AAPL [PriceWatchEngine] provider failing")
        let bare = StandardErrorLogHandler.line(for: event, label: "", metadata: [:], at: Timestamp(seconds: 0))
        #expect(bare == "1970-01-01T00:00:00Z warning: [PriceWatchEngine] provider failing")
    }

    /// The real binary, in a time zone far from UTC: every log line starts with `...Z`.
    @Test func theDaemonsStandardErrorLinesStartWithAnRFC3339UTCTime() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", "[providers.p]\ntype = \"nope\"\n")
        let result = try await CommandRunner.run(["run", "--config", "pricewatch.toml", "--log-target", "stderr"],
                                                 in: directory.path, environment: ["TZ": "Asia/Kolkata"])
        #expect(result.status == 78)
        let logLines = result.errorLines.filter { $0.contains(" pricewatch: ") }
        #expect(!logLines.isEmpty, "\(result.errorLines)")
        let pattern = #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ (trace|debug|info|notice|warning|error|critical) pricewatch: /#
        for line in logLines {
            #expect(line.firstMatch(of: pattern) != nil, "not an RFC 3339 UTC log line: \(line)")
        }
    }
}
