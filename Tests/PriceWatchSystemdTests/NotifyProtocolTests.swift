import Foundation
import PriceWatchSystemd
import PriceWatchTestKit
import Testing

/// `pricewatch run` under a service manager of the test's own: a `NOTIFY_SOCKET` datagram
/// socket receives what systemd would, from the real binary.
@Suite(.serialized) struct NotifyProtocolTests {
    /// `NAME=value` lines of one message.
    static func fields(_ message: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in message.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return fields
    }

    static func count(_ messages: [String], _ assignment: String) -> Int {
        messages.filter { $0.split(separator: "\n").contains(Substring(assignment)) }.count
    }

    static func index(_ messages: [String], after start: Int = 0, of assignment: String) -> Int? {
        messages.indices.dropFirst(start).first { messages[$0].split(separator: "\n").contains(Substring(assignment)) }
    }

    @Test func readyStatusReloadRejectedReloadStoppingAndWatchdogArriveInOrder() async throws {
        let demo = try DemoDaemon()
        let socket = try NotifySocket(path: demo.directory.file("notify.sock"))
        defer { socket.close() }
        // WATCHDOG_PID must be the daemon's own pid: the shell sets it, then becomes the daemon.
        let daemon = try ChildProcess(
            "/bin/sh", ["-c", "WATCHDOG_PID=$$ exec \"$0\" run --config pricewatch.toml --log-target stderr", CommandRunner.executable],
            in: demo.path, environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "400000"],
            removing: ["WATCHDOG_PID", "JOURNAL_STREAM"])

        // Start: a status while loading, READY with the summary, a status after polls, pings.
        try await socket.waitFor("the first READY=1 (stderr: \(daemon.errorOutput.suffix(500)))") { Self.count($0, "READY=1") == 1 }
        try await socket.waitFor("a status with the last poll and two pings after READY=1") { messages in
            let ready = Self.index(messages, of: "READY=1") ?? messages.count
            return messages[ready...].contains { $0.hasPrefix("STATUS=") && $0.contains("last poll") }
                && Self.count(Array(messages[ready...]), "WATCHDOG=1") >= 2
        }
        // It has drawn no chart, so it has not loaded cairo (nor the X11 and font libraries
        // cairo brings): those are opened with the first chart.
        let maps = try String(contentsOfFile: "/proc/\(daemon.pid)/maps", encoding: .utf8)
        #expect(!maps.contains("libcairo"), "the daemon mapped cairo before drawing any chart")

        // A valid reload: RELOADING with MONOTONIC_USEC from this boot's monotonic clock, then READY.
        try demo.prepareReload(valid: true)
        let before = ServiceNotifier.monotonicMicroseconds()
        daemon.signal(SIGHUP)
        try await socket.waitFor("READY=1 after the valid reload") { Self.count($0, "READY=1") == 2 }
        let after = ServiceNotifier.monotonicMicroseconds()

        // A rejected reload: RELOADING, then READY again with a status that says so.
        try demo.prepareReload(valid: false)
        daemon.signal(SIGHUP)
        try await socket.waitFor("READY=1 after the rejected reload") { Self.count($0, "READY=1") == 3 }
        let pingsSoFar = Self.count(socket.messages, "WATCHDOG=1")
        try await socket.waitFor("two pings after the reloads") { Self.count($0, "WATCHDOG=1") >= pingsSoFar + 2 }

        daemon.signal(SIGTERM)
        #expect(try await daemon.waitForExit() == 0, "\(daemon.errorOutput)")
        try await socket.waitFor("STOPPING=1") { Self.count($0, "STOPPING=1") == 1 }

        let messages = socket.messages
        let lifecycle = messages.filter { !($0 == "WATCHDOG=1" || ($0.hasPrefix("STATUS=") && !$0.contains("\n"))) }
        let kinds = lifecycle.map { $0.split(separator: "\n").first.map(String.init) ?? "" }
        #expect(kinds == ["READY=1", "RELOADING=1", "READY=1", "RELOADING=1", "READY=1", "STOPPING=1"], "\(messages)")
        #expect(messages.first == "STATUS=loading the configuration")
        // Everything but status updates and pings carries a status line.
        for message in lifecycle { #expect(Self.fields(message)["STATUS"] != nil, "\(message)") }

        let readies = lifecycle.filter { $0.hasPrefix("READY=1") }.map { Self.fields($0)["STATUS"] ?? "" }
        #expect(readies[0] == "1 rule on 1 symbol, 1 provider, 1 sink")
        #expect(readies[1].hasPrefix("2 rules on 1 symbol, 1 provider, 1 sink; last poll "), "\(readies[1])")
        #expect(readies[2].hasPrefix("configuration reload rejected (1 error); running the previous one; 2 rules on 1 symbol"),
                "\(readies[2])")

        let reloads = lifecycle.filter { $0.hasPrefix("RELOADING=1") }.map(Self.fields)
        let stamp = try #require(reloads.first?["MONOTONIC_USEC"].flatMap(UInt64.init))
        #expect(before <= stamp && stamp <= after, "MONOTONIC_USEC \(stamp) outside [\(before), \(after)]")
        #expect(reloads.allSatisfy { $0["STATUS"] == "reloading the configuration" })

        // Pings come all along (the pinger starts with the services, just before READY, and
        // keeps going while they drain).
        let stopping = try #require(Self.index(messages, of: "STOPPING=1"))
        let lastReady = try #require(messages.lastIndex { $0.hasPrefix("READY=1") })
        #expect(messages[lastReady..<stopping].filter { $0 == "WATCHDOG=1" }.count >= 2)
        #expect(Self.fields(messages[stopping])["STATUS"] == "stopping")

        let status = messages.filter { $0.hasPrefix("STATUS=") && $0.contains("last poll") }
        #expect(status.contains { $0.contains("(replay)") && $0.contains("pending deliver") }, "\(status)")
    }

    @Test func withoutAWatchdogForThisProcessThereAreNoPings() async throws {
        let demo = try DemoDaemon()
        let socket = try NotifySocket(path: demo.directory.file("notify.sock"))
        defer { socket.close() }
        // WATCHDOG_PID names another process: the watchdog is not this daemon's.
        let daemon = try ChildProcess(
            CommandRunner.executable, ["run", "--config", "pricewatch.toml", "--log-target", "stderr"], in: demo.path,
            environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "400000", "WATCHDOG_PID": "1"],
            removing: ["JOURNAL_STREAM"])
        // The daemon runs for two polls, five ping periods (it alerts on the second), and stops
        // cleanly, yet no ping was sent.
        try await waitUntil("the alert of x-crosses-15 (stderr: \(daemon.errorOutput.suffix(500)))") { daemon.output.contains("x-crosses-15") }
        daemon.signal(SIGTERM)
        #expect(try await daemon.waitForExit() == 0)
        try await socket.waitFor("STOPPING=1") { Self.count($0, "STOPPING=1") == 1 }
        #expect(Self.count(socket.messages, "WATCHDOG=1") == 0, "\(socket.messages)")
    }

    @Test func anInvalidConfigurationSaysSoInTheStatusAndExits78() async throws {
        let demo = try DemoDaemon()
        try demo.prepareReload(valid: false)
        let socket = try NotifySocket(path: demo.directory.file("notify.sock"))
        defer { socket.close() }
        let daemon = try ChildProcess(CommandRunner.executable, ["run", "--config", "pricewatch.toml"], in: demo.path,
                                      environment: ["NOTIFY_SOCKET": socket.path], removing: ["JOURNAL_STREAM"])
        #expect(try await daemon.waitForExit() == 78)
        try await socket.waitFor("two status messages") { $0.count == 2 }
        #expect(socket.messages == ["STATUS=loading the configuration",
                                    "STATUS=invalid configuration in pricewatch.toml; not starting"])
    }
}
