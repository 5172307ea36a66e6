import Foundation
import PriceWatchTestKit
import Synchronization

/// A real SMTP server (`Tests/Fixtures/smtp/smtp_server.py`, on Debian's python3-aiosmtpd)
/// on a free loopback port, started for one test and stopped when the test lets go of it.
///
/// Waiting is for events (the READY line, a connection) through ``waitFor(_:timeout:_:)``; a
/// missed event fails the test naming it. The process is started with ``TestProcesses`` and
/// killed when the test lets go of the server.
final class EmailTestServer: Sendable {
    /// How the server speaks; see the script's documentation.
    enum Mode: String, Sendable {
        case startTLS = "starttls", implicitTLS = "implicit", plain = "none", hang, closed
    }

    static let username = "alice"
    static let password = "c0rrect-h0rse-battery"

    let directory: TemporaryDirectory
    let port: Int
    let mode: Mode
    private let process: Process
    private let input: Pipe
    private let lines: Lines

    /// The server's standard output, line by line (a line split across reads is joined).
    final class Lines: Sendable {
        let state = Mutex<[String]>([])
        private let partial = Mutex("")

        func append(_ text: String) {
            let complete: [String] = partial.withLock { buffer in
                buffer += text
                var parts = buffer.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                buffer = parts.removeLast()
                return parts
            }
            state.withLock { $0 += complete }
        }
    }

    /// The server's certificate, for the sink's `ca_file`.
    var caFile: String { directory.file("cert.pem") }

    init(_ mode: Mode, authenticated: Bool = false, reject: [String] = [], tempfail: [String] = []) async throws {
        directory = try TemporaryDirectory()
        self.mode = mode
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        var arguments = [RepositoryFiles.path("Tests/Fixtures/smtp/smtp_server.py"), "--dir", directory.path, "--tls", mode.rawValue]
        if authenticated { arguments += ["--auth", "\(Self.username):\(Self.password)"] }
        for address in reject { arguments += ["--reject", address] }
        for address in tempfail { arguments += ["--tempfail", address] }
        process.arguments = arguments
        let output = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        let lines = Lines()
        PipeDrain.start(output, name: "SMTP test server") { data in
            lines.append(String(decoding: data, as: UTF8.self))
        }
        try TestProcesses.launch(process)
        self.process = process
        self.input = input
        self.lines = lines

        let what = "the SMTP test server's READY line (is python3-aiosmtpd installed? scripts/setup installs it)"
        do {
            port = try await waitFor(what) {
                if let port = lines.state.withLock({ $0 }).first(where: { $0.hasPrefix("READY ") }).flatMap({ Int($0.dropFirst(6)) }) {
                    return port
                }
                if !process.isRunning { throw WaitAbandoned(what: what, reason: "it exited with status \(process.terminationStatus)") }
                return nil
            }
        } catch {
            TestProcesses.terminate(process)
            throw error
        }
    }

    deinit {
        try? input.fileHandleForWriting.close()
        TestProcesses.terminate(process)
        try? FileManager.default.removeItem(atPath: directory.path)
    }

    struct ServerError: Error, CustomStringConvertible {
        let description: String
    }

    /// `smtp://127.0.0.1:PORT` (or `smtps://` for implicit TLS).
    var url: String { "\(mode == .implicitTLS ? "smtps" : "smtp")://127.0.0.1:\(port)" }

    /// Returns once a client has connected (``Mode/hang``); throws after the deadline.
    func waitForConnection() async throws {
        try await waitUntil("a connection to the SMTP test server") { lines.state.withLock { $0.contains("CONNECTION") } }
    }

    /// Every message received so far, in order.
    func received() throws -> [ReceivedMail] {
        let folder = directory.file("messages")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let numbers = names.compactMap { $0.hasSuffix(".json") ? Int($0.dropLast(5)) : nil }.sorted()
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try numbers.map { number in
            var mail = try decoder.decode(ReceivedMail.self, from: Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(number).json")))
            mail.raw = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(number).eml")))
            return mail
        }
    }
}

/// One message as the test server received it: the envelope, the session, the raw bytes, and
/// the message as Python's `email` package (policy=strict) parsed it.
struct ReceivedMail: Decodable {
    var mailFrom: String
    var rcptTos: [String]
    var tls: Bool
    var authenticated: Bool
    var login: String?
    var parseError: String?
    var message: Parsed?
    var raw: [UInt8] = []

    struct Parsed: Decodable {
        var headers: [Header]
        var subject: String
        var from: [String]
        var fromDisplay: [String]
        var to: [String]
        var messageId: String
        var date: String?
        var contentType: String
        var parts: [Part]
        var defects: [String]

        func headers(named name: String) -> [String] {
            headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }
    }

    struct Header: Decodable {
        var name: String
        var value: String
    }

    struct Part: Decodable {
        var contentType: String
        var charset: String?
        var transferEncoding: String?
        var content: String
    }

    private enum CodingKeys: String, CodingKey {
        case mailFrom, rcptTos, tls, authenticated, login, parseError, message
    }
}
