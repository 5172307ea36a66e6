import CSystemd
import Foundation
import PriceWatchCore
import PriceWatchSystemd
import PriceWatchTestKit
import Synchronization
import Testing

/// The `desktop` sink on a private session bus (`dbus-daemon --session` on a socket of the
/// test's) with a notification server of the test's own that owns
/// `org.freedesktop.Notifications` and records each `Notify` call: what the sink sends
/// (summary, body, urgency by rule), and what it says when there is no server or no bus.
@Suite(.serialized) struct DesktopNotificationSinkTests {
    /// `dbus-daemon --session` listening on `address`, stopped by ``stop()``.
    final class PrivateBus: Sendable {
        let process: Process
        let address: String
        let socket: String

        init(directory: TemporaryDirectory) throws {
            socket = directory.path + "/bus"
            address = "unix:path=\(socket)"
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
            process.arguments = ["--session", "--nofork", "--nopidfile", "--address=\(address)"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try TestProcesses.launch(process)
        }

        func stop() { TestProcesses.terminate(process) }
    }

    /// One recorded Notify call.
    struct Call: Sendable, Equatable {
        let app: String
        let summary: String
        let body: String
        let urgency: UInt8
    }

    /// Owns `org.freedesktop.Notifications` and answers every Notify with the next id, on a
    /// thread of its own (sd-bus blocks).
    final class NotificationServer: @unchecked Sendable {
        // The bus is touched only by the serving thread once `init` returns.
        private let bus: OpaquePointer
        let calls = Mutex<[Call]>([])
        private let stopping = Atomic<Bool>(false)
        private let stopped = DispatchSemaphore(value: 0)

        init(address: String) throws {
            var opened: OpaquePointer?
            let result = pw_bus_open(&opened, address)
            guard result >= 0, let bus = opened else { throw BusFailure(step: "connect", code: result) }
            self.bus = bus
            let named = sd_bus_request_name(bus, "org.freedesktop.Notifications", 0)
            guard named >= 0 else { throw BusFailure(step: "own org.freedesktop.Notifications", code: named) }
            let added = sd_bus_add_filter(bus, nil, { message, userdata, _ in
                guard let message, let userdata,
                      sd_bus_message_is_method_call(message, "org.freedesktop.Notifications", "Notify") > 0 else { return 0 }
                let server = Unmanaged<NotificationServer>.fromOpaque(userdata).takeUnretainedValue()
                var app: UnsafePointer<CChar>?, summary: UnsafePointer<CChar>?, body: UnsafePointer<CChar>?
                var urgency: UInt8 = 0, expire: Int32 = 0
                guard pw_notify_read(message, &app, &summary, &body, &urgency, &expire) >= 0 else { return -EINVAL }
                let count = server.calls.withLock { calls in
                    calls.append(Call(app: app.map { String(cString: $0) } ?? "", summary: summary.map { String(cString: $0) } ?? "",
                                      body: body.map { String(cString: $0) } ?? "", urgency: urgency))
                    return calls.count
                }
                return pw_bus_reply_uint32(message, UInt32(count)) >= 0 ? 1 : -EIO
            }, Unmanaged.passUnretained(self).toOpaque())
            guard added >= 0 else { throw BusFailure(step: "add a filter", code: added) }
            let thread = Thread { [self] in
                while !stopping.load(ordering: .acquiring) {
                    while sd_bus_process(self.bus, nil) > 0 {}
                    _ = sd_bus_wait(self.bus, 50_000)
                }
                _ = sd_bus_flush_close_unref(self.bus)
                stopped.signal()
            }
            thread.start()
        }

        func stop() {
            stopping.store(true, ordering: .releasing)
            _ = stopped.wait(timeout: .now() + 10)
        }
    }

    struct BusFailure: Error, CustomStringConvertible {
        let step: String
        let code: Int32
        var description: String { "the test's notification server could not \(step): \(String(cString: strerror(-code)))" }
    }

    static func alert(rule: String, message: String) -> Alert {
        Alert(id: "6f1c0f6e-0000-4000-8000-000000000001", rule: rule, symbol: "AAPL", provider: "yahoo", condition: "above 226.5",
              price: ExactDecimal(scaled: 22_681_000_000), currency: "USD", time: Timestamp(seconds: 1_727_899_140), base: nil,
              change: nil, direction: nil, message: message)
    }

    /// Starts a private bus and waits for its socket.
    static func startBus(_ directory: TemporaryDirectory) async throws -> PrivateBus {
        let bus = try PrivateBus(directory: directory)
        try await waitUntil("dbus-daemon to listen on \(bus.socket)") { FileManager.default.fileExists(atPath: bus.socket) }
        return bus
    }

    @Test func alertsAreNotificationsWithTheirRulesUrgency() async throws {
        let directory = try TemporaryDirectory()
        let bus = try await Self.startBus(directory)
        defer { bus.stop() }
        let server = try NotificationServer(address: bus.address)
        defer { server.stop() }
        let sink = DesktopNotificationSink(name: "laptop", address: bus.address, urgentRules: ["aapl-urgent"])
        try await sink.deliver(Self.alert(rule: "aapl-above", message: "AAPL 226.81 USD: above 226.5 (rule aapl-above)"))
        try await sink.deliver(Self.alert(rule: "aapl-urgent", message: "now"))
        try await sink.deliver(OutgoingNotification(id: "digest-1", kind: .digest, time: Timestamp(seconds: 0),
                                                    content: .message(NotificationMessage(title: "pricewatch day digest", text: "Top gainers"))))
        let calls = server.calls.withLock { $0 }
        #expect(calls == [
            Call(app: "pricewatch", summary: "AAPL 226.81 USD", body: "AAPL 226.81 USD: above 226.5 (rule aapl-above)", urgency: 1),
            Call(app: "pricewatch", summary: "AAPL 226.81 USD", body: "now", urgency: 2),
            Call(app: "pricewatch", summary: "pricewatch day digest", body: "Top gainers", urgency: 0),
        ])
        #expect(sink.identity == "desktop/laptop")
    }

    @Test func noServerAndNoBusAreRetryable() async throws {
        let directory = try TemporaryDirectory()
        let bus = try await Self.startBus(directory)
        defer { bus.stop() }
        let sink = DesktopNotificationSink(name: "laptop", address: bus.address)
        let unserved = await #expect(throws: SinkError.self) { try await sink.deliver(Self.alert(rule: "r", message: "m")) }
        #expect(unserved?.isRetryable == true)
        #expect(unserved?.message.contains("org.freedesktop.DBus.Error.ServiceUnknown") == true, "\(unserved?.message ?? "")")
        let nowhere = DesktopNotificationSink(name: "laptop", address: "unix:path=\(directory.path)/no-bus")
        let unreachable = await #expect(throws: SinkError.self) { try await nowhere.deliver(Self.alert(rule: "r", message: "m")) }
        #expect(unreachable?.isRetryable == true)
        #expect(unreachable?.message.hasPrefix("desktop/laptop: cannot reach the session bus at unix:path=") == true,
                "\(unreachable?.message ?? "")")
    }
}
