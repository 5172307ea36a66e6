import Foundation
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// Quiet hours against the running daemon: a sink whose quiet window covers the present holds
/// the alerts (pending, shown as held by `pricewatch alerts`) while an urgent rule's alerts go
/// out at once; when the window ends, at the next minute or the one after, the held alerts
/// arrive. Real time: the window is the only clock the daemon has here, so the test waits up
/// to about two minutes.
@Suite(.serialized) struct QuietHoursEndToEndTests {
    static func ids(_ lines: [String]) -> [String] {
        lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? String }
    }

    static func clock(_ minuteOfDay: Int) -> String {
        let minute = (minuteOfDay + 1440) % 1440
        return String(format: "%02d:%02d", minute / 60, minute % 60)
    }

    @Test func heldAlertsArriveWhenTheWindowEndsAndUrgentOnesAtOnce() async throws {
        let directory = try TemporaryDirectory()
        let rules = ReplayDaemonFiles.crossingRule + "\n[[rule]]\nid = \"x-above-15-urgent\"\nsymbol = \"X\"\nabove = 15\nurgent = true\n"
        try ReplayDaemonFiles.write(in: directory, prices: (0..<40).map { $0 % 2 == 0 ? "10" : "20" }, rules: rules)
        let seconds = Int(Date().timeIntervalSince1970)
        let minute = (seconds / 60) % 1440
        // From a minute ago to the next minute but one: ends 60 to 120 s from now.
        let window = "\(Self.clock(minute - 1))-\(Self.clock(minute + 2))"
        let main = try String(contentsOfFile: directory.file("pricewatch.toml"), encoding: .utf8)
        try directory.write("pricewatch.toml", main + "\nquiet = \"\(window)\"\n")
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)

        try await daemon.waitForOutput("an urgent alert during quiet hours") { lines in
            Self.ids(lines).count >= 1
        }
        let held = try await waitFor("held alerts in the alert log") { () async -> [String]? in
            guard let result = try? await CommandRunner.run(["alerts", "--config", "pricewatch.toml", "--status", "pending"], in: directory.path),
                  result.standardOutput.contains("held for quiet hours until") else { return nil }
            return result.outputLines
        }
        #expect(!held.isEmpty)
        let delivered = Self.ids(daemon.outputLines)
        let log = try await CommandRunner.run(["alerts", "--config", "pricewatch.toml", "--format", "json"], in: directory.path)
        let crossings = log.outputLines.filter { $0.contains("\"rule\":\"x-crosses-15\"") }
        #expect(!crossings.isEmpty)
        #expect(Set(Self.ids(crossings)).isDisjoint(with: delivered), "no crossing alert goes out during quiet hours")

        // The window ends within two minutes: every crossing alert queued so far arrives then.
        let waiting = Set(Self.ids(crossings))
        try await daemon.waitForOutput("the held alerts after the quiet window \(window)", timeout: .seconds(200)) { lines in
            waiting.isSubset(of: Set(Self.ids(lines)))
        }
        #expect(try await daemon.stop() == 0)
    }
}
