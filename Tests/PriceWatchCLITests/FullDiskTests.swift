import Foundation
import PriceWatchTestKit
import Testing

/// A full disk under the running daemon, for real: its state directory is a 1 MiB tmpfs that
/// fills up while X crosses 15 and back, then frees (`Tests/Fixtures/faults/full-disk-scenario.sh`,
/// in a private mount namespace; needs root). The polls the store refused are kept and, once it
/// accepts writes again, committed and evaluated in order: both crossings are alerted, with
/// their quote times.
@Suite(.serialized) struct FullDiskTests {
    static let scenario = RepositoryFiles.path("Tests/Fixtures/faults/full-disk-scenario.sh")

    @Test(.enabled(if: getuid() == 0, "needs root for a private mount namespace and a tmpfs"))
    func crossingsDuringAFullDiskAreAlertedOnceThereIsSpace() async throws {
        let work = try TemporaryDirectory()
        let output = try TemporaryDirectory()
        // Row 0 is stored before the disk fills; rows 6 (20, up) and 7 (10, down) cross during it.
        try ReplayDaemonFiles.write(in: work, prices: Array(repeating: "10", count: 6) + ["20"] + Array(repeating: "10", count: 40))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.scenario)
        process.arguments = [CommandRunner.executable, work.path, output.path]
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The scenario runs the daemon through several minutes of replayed quotes: a longer
        // deadline than a wait for one event, with the test kit's one way of waiting.
        do {
            try await waitUntil("the full-disk scenario to finish", timeout: .seconds(240)) { !process.isRunning }
        } catch {
            process.terminate()
            throw error
        }
        let stdout = (try? String(contentsOfFile: output.file("stdout"), encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: output.file("stderr"), encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "the scenario failed: \(stderr)")
        #expect(stderr.contains("database or disk is full"), "the disk never filled: \(stderr)")
        // Both come due together once the disk has room, and a sink delivers up to
        // `concurrency` (4) at once: each exactly once, in either order.
        let times = RunCommandTests.alertTimes(stdout.split(separator: "\n").map(String.init)).sorted()
        #expect(times == ["2024-10-02T13:36:00Z", "2024-10-02T13:37:00Z"], "alerts: \(stdout)\nlog: \(stderr)")
    }
}
