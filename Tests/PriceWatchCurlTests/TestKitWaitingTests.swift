import Foundation
import PriceWatchTestKit
import Synchronization
import Testing

/// The test kit's own guarantees: every wait ends by its deadline with a message naming what
/// it waited for, and a process a test starts does not outlive it.
@Suite("Test kit: waiting and processes")
struct TestKitWaitingTests {
    @Test func aWaitReturnsOnceItsConditionHolds() async throws {
        let flag = Task { () -> Bool in
            for _ in 0..<10 { await Task.yield() }
            return true
        }
        try await waitUntil("the flag") { await flag.value }
    }

    @Test func aWaitThatNeverHoldsFailsAtItsRealTimeDeadlineNamingWhatItWaitedFor() async throws {
        let started = ContinuousClock.now
        let error = await #expect(throws: WaitTimedOut.self) {
            try await waitUntil("the impossible event", timeout: .milliseconds(200)) { false }
        }
        #expect(ContinuousClock.now - started >= .milliseconds(200), "a deadline in time, not a count of yields")
        #expect(error?.description == "timed out after 0 s waiting for the impossible event")
    }

    /// Waiting for requests that never come used to suspend forever.
    @Test func waitingForRequestsThatNeverComeFailsNamingThem() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let error = await #expect(throws: WaitTimedOut.self) {
            try await server.waitForRequests(count: 2, timeout: .milliseconds(100))
        }
        #expect(error?.what.hasPrefix("2 request(s) at 127.0.0.1:\(server.port) (0 arrived") == true, "\(String(describing: error))")
    }

    @Test func aManualClockWithoutSleepersFailsTheWait() async throws {
        let clock = ManualClock()
        let error = await #expect(throws: WaitTimedOut.self) { try await clock.waitForSleepers(1, timeout: .milliseconds(100)) }
        #expect(error?.what == "1 task(s) asleep on the manual clock (0 asleep)")
    }

    /// Issue 30, item 19: one helper, one deadline policy. No test file keeps its own
    /// `waitUntil` or its own real-time deadline loop; they wait with the test kit's
    /// (`waitUntil`, `waitFor`, `expiringWait`). RawHTTP's is a read timeout on a blocking
    /// socket, not a wait for an event.
    @Test func testFilesWaitWithTheTestKitOnly() throws {
        let tests = RepositoryFiles.path("Tests")
        let allowed: Set<String> = ["PriceWatchHTTPTests/RawHTTP.swift"]
        // Spelled in parts, so that this file does not match itself.
        let patterns = ["func " + "waitUntil(", "ContinuousClock.now" + ".advanced(by:"]
        var copies: [String] = []
        let files = FileManager.default.enumerator(atPath: tests)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") && !file.hasPrefix("PriceWatchTestKit/") && !allowed.contains(file) {
            let text = try String(contentsOfFile: tests + "/" + file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where patterns.contains(where: { line.contains($0) }) {
                copies.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(copies.isEmpty, "waits of their own: \(copies)")
    }

    @Test func anExpiringWaitRunsOnlyWhenNotCancelledInTime() async throws {
        let expired = ManagedFlag()
        let watchdog = expiringWait(timeout: .milliseconds(50)) { expired.set() }
        try await waitUntil("the watchdog to expire") { expired.isSet }
        await watchdog.value
        let cancelled = ManagedFlag()
        let early = expiringWait(timeout: .seconds(60)) { cancelled.set() }
        early.cancel()
        await early.value
        #expect(!cancelled.isSet)
    }

    final class ManagedFlag: Sendable {
        private let value = Mutex(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }

    /// A helper script's own children go with it: the whole process group is killed.
    @Test func terminatingAProcessKillsItsChildrenToo() async throws {
        let directory = try TemporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "sleep 300 & echo $! > \(directory.file("child.pid")); wait"]
        try TestProcesses.launch(process)
        let child = try await waitFor("the script to write its child's pid") {
            (try? String(contentsOfFile: directory.file("child.pid"), encoding: .utf8))
                .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        #expect(Self.isAlive(child))
        TestProcesses.terminate(process)
        try await waitUntil("the script's child \(child) to be gone") { !Self.isAlive(child) }
        try await waitUntil("the script to be gone") { !process.isRunning }
    }

    /// Running and not a zombie (a zombie waits for a parent that may never reap it here).
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: end)...].trimmingCharacters(in: .whitespaces).first != "Z"
    }
}
