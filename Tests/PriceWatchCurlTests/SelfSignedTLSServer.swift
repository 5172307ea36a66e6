import Foundation
import PriceWatchTestKit
import Synchronization

/// `openssl s_server -www` on `127.0.0.1`, port 0, with a freshly made self-signed certificate:
/// a real TLS peer that a verifying client must refuse.
final class SelfSignedTLSServer: Sendable {
    let port: Int
    private let process: Process

    init() async throws {
        let directory = try TemporaryDirectory()
        let made = Process()
        made.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        made.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                          "-keyout", directory.file("key.pem"), "-out", directory.file("cert.pem"), "-days", "1",
                          "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        made.standardOutput = FileHandle.nullDevice
        made.standardError = FileHandle.nullDevice
        let status = try await TestProcesses.run(made, "openssl req")
        guard status == 0 else { throw TLSServerError("openssl req exited with \(status)") }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["s_server", "-accept", "127.0.0.1:0", "-cert", directory.file("cert.pem"),
                             "-key", directory.file("key.pem"), "-www"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = Pipe()
        let printed = Mutex("")
        PipeDrain.start(output, name: "openssl s_server") { data in
            printed.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try TestProcesses.launch(process)
        self.process = process
        // s_server prints "ACCEPT 127.0.0.1:<port>" once it listens.
        let what = "openssl s_server to print its address (ACCEPT 127.0.0.1:<port>)"
        do {
            port = try await waitFor(what) {
                let text = printed.withLock { $0 }
                if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT ") }) {
                    guard let portText = line.split(separator: ":").last, let port = Int(portText) else {
                        throw TLSServerError("openssl s_server printed \"\(line)\" instead of its address")
                    }
                    return port
                }
                if !process.isRunning { throw WaitAbandoned(what: what, reason: "it exited; it printed \"\(text)\"") }
                return nil
            }
        } catch {
            TestProcesses.terminate(process)
            throw error
        }
    }

    deinit { TestProcesses.terminate(process) }
}

struct TLSServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
