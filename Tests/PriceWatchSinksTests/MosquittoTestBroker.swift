#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PriceWatchTestKit

/// A real `mosquitto` broker on a free loopback port, with a configuration file of its own in
/// a temporary directory (anonymous, or with a password file made by `mosquitto_passwd`).
/// It is started under ``TestProcesses`` and stopped by ``stop()`` (call it in a `defer`), or
/// when the test process ends.
final class MosquittoTestBroker: @unchecked Sendable {
    static let executable = "/usr/sbin/mosquitto"
    static let passwordTool = "/usr/bin/mosquitto_passwd"
    /// Whether the tests can run: the broker is installed.
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    let port: UInt16
    let directory: TemporaryDirectory
    private let process = Process()
    private let log: String

    /// Starts the broker; with `credentials`, only that user and password may connect; with
    /// `tls`, the listener speaks TLS only, with a self-signed certificate for 127.0.0.1
    /// (``certificate``, which clients trust as their CA file).
    init(credentials: (username: String, password: String)? = nil, tls: Bool = false) throws {
        directory = try TemporaryDirectory()
        port = try Self.freePort()
        log = directory.file("mosquitto.log")
        var config = """
            listener \(port) 127.0.0.1
            persistence false
            log_dest file \(log)
            log_type all

            """
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
        try directory.write("mosquitto.conf", config)
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-c", directory.file("mosquitto.conf")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try TestProcesses.launch(process)
    }

    /// Waits until the broker accepts TCP connections on its port.
    func waitUntilListening() async throws {
        try await waitUntil("mosquitto to listen on 127.0.0.1:\(port) (running: \(process.isRunning); log: \(logText))") {
            guard process.isRunning else { throw BrokerError(description: "mosquitto exited with status \(process.terminationStatus): \(logText)") }
            return Self.accepts(port: port)
        }
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

    var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// Kills the broker and removes its directory; safe to call more than once.
    func stop() {
        TestProcesses.terminate(process)
        try? FileManager.default.removeItem(atPath: directory.path)
    }

    deinit { stop() }

    struct BrokerError: Error, CustomStringConvertible {
        let description: String
    }

    /// A port the kernel just gave and took back: free unless another test takes it first.
    static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BrokerError(description: "socket failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard ok else { throw BrokerError(description: "bind/getsockname on 127.0.0.1 failed: errno \(errno)") }
        return UInt16(bigEndian: address.sin_port)
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
