#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PriceWatchTestKit
import Synchronization

/// A real `mosquitto` broker on a free loopback port, with a configuration file of its own in
/// a temporary directory (anonymous, or with a password file made by `mosquitto_passwd`).
/// It is started under ``TestProcesses`` and stopped by ``stop()`` (call it in a `defer`), or
/// when the test process ends.
final class MosquittoTestBroker: @unchecked Sendable {
    // @unchecked: `directory` and `configuration` are immutable; the running launch is in a mutex.
    static let executable = "/usr/sbin/mosquitto"
    static let passwordTool = "/usr/bin/mosquitto_passwd"
    /// Whether the tests can run: the broker is installed.
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    let directory: TemporaryDirectory
    /// The configuration without its `listener` and `log_dest` lines, which each launch adds.
    private let configuration: String

    /// One start of the broker process, on one port with its own log.
    private struct Launch {
        let port: UInt16
        let process: Process
        let log: String
    }

    private let launch: Mutex<Launch?> = Mutex(nil)
    private let launches = Mutex(0)

    /// Starts the broker; with `credentials`, only that user and password may connect; with
    /// `tls`, the listener speaks TLS only, with a self-signed certificate for 127.0.0.1
    /// (``certificate``, which clients trust as their CA file). ``waitUntilListening()``
    /// waits for its listener (and moves it to another port if the first was taken).
    init(credentials: (username: String, password: String)? = nil, tls: Bool = false) throws {
        directory = try TemporaryDirectory()
        var config = "persistence false\nlog_type all\n"
        if tls {
            try Self.makeCertificate(certificate: directory.file("cert.pem"), key: directory.file("key.pem"))
            config += "cafile \(directory.file("cert.pem"))\ncertfile \(directory.file("cert.pem"))\nkeyfile \(directory.file("key.pem"))\n"
        }
        // As root, mosquitto would switch to its own user, who cannot read the temporary files.
        if getuid() == 0 { config += "user root\n" }
        if let credentials {
            let passwords = directory.file("passwords")
            let maker = Process()
            maker.executableURL = URL(fileURLWithPath: Self.passwordTool)
            maker.arguments = ["-b", "-c", passwords, credentials.username, credentials.password]
            maker.standardOutput = FileHandle.nullDevice
            maker.standardError = FileHandle.nullDevice
            try maker.run()
            maker.waitUntilExit()
            guard maker.terminationStatus == 0 else {
                throw BrokerError(description: "mosquitto_passwd -b -c exited with status \(maker.terminationStatus), expected 0")
            }
            config += "allow_anonymous false\npassword_file \(passwords)\n"
        } else {
            config += "allow_anonymous true\n"
        }
        configuration = config
        try start()
    }

    /// The port of the current launch.
    var port: UInt16 { launch.withLock { $0?.port ?? 0 } }

    /// Launches the broker on a fresh port.
    ///
    /// The port is below the kernel's ephemeral range (32768 and up), so no socket of the
    /// test process can be given it meanwhile, neither a listener bound to port 0 nor a
    /// client's local port; two brokers drawing the same number are told apart by
    /// ``waitUntilListening()``, which launches the loser again.
    private func start() throws {
        let attempt = launches.withLock { launches in
            launches += 1
            return launches
        }
        let port = UInt16.random(in: 20_000...32_000)
        let log = directory.file("mosquitto-\(attempt).log")
        let name = "mosquitto-\(attempt).conf"
        try directory.write(name, "listener \(port) 127.0.0.1\nlog_dest file \(log)\n" + configuration)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-c", directory.file(name)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        launch.withLock { $0 = Launch(port: port, process: process, log: log) }
        try TestProcesses.launch(process)
    }

    /// Waits until the broker says it is running (its listener is open); if its port was
    /// taken, starts it again on another, up to five times.
    func waitUntilListening() async throws {
        for _ in 0..<5 {
            guard let current = launch.withLock({ $0 }) else { throw BrokerError(description: "mosquitto was never launched") }
            let outcome = try await waitFor("mosquitto to listen on 127.0.0.1:\(current.port) (running: \(current.process.isRunning); log: \(logText))") {
                () -> Bool? in
                let text = (try? String(contentsOfFile: current.log, encoding: .utf8)) ?? ""
                if !current.process.isRunning {
                    guard text.contains("Address already in use") else {
                        throw BrokerError(description: "mosquitto exited with status \(current.process.terminationStatus): \(text)")
                    }
                    return false
                }
                return text.contains("running") && Self.accepts(port: current.port) ? true : nil
            }
            if outcome { return }
            try start()
        }
        throw BrokerError(description: "mosquitto found no free port in five launches: \(logText)")
    }

    /// The TLS listener's self-signed certificate (with `tls`).
    var certificate: String { directory.file("cert.pem") }

    static func makeCertificate(certificate: String, key: String) throws {
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-sha256", "-days", "1",
                             "-keyout", key, "-out", certificate, "-subj", "/CN=localhost",
                             "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else {
            throw BrokerError(description: "openssl req -x509 exited with status \(openssl.terminationStatus), expected 0")
        }
    }

    /// The current launch's log.
    var logText: String {
        guard let log = launch.withLock({ $0?.log }) else { return "" }
        return (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    }

    /// Kills the broker and removes its directory; safe to call more than once.
    func stop() {
        if let process = launch.withLock({ $0?.process }) { TestProcesses.terminate(process) }
        try? FileManager.default.removeItem(atPath: directory.path)
    }

    deinit { stop() }

    struct BrokerError: Error, CustomStringConvertible {
        let description: String
    }

    static func accepts(port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
