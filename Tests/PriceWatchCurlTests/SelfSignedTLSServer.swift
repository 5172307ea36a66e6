import Foundation
import PriceWatchTestKit

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
        try made.run()
        await Self.waitForExit(made)
        guard made.terminationStatus == 0 else { throw TLSServerError("openssl req exited with \(made.terminationStatus)") }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["s_server", "-accept", "127.0.0.1:0", "-cert", directory.file("cert.pem"),
                             "-key", directory.file("key.pem"), "-www"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = Pipe()
        try process.run()
        self.process = process
        // s_server prints "ACCEPT 127.0.0.1:<port>" once it listens.
        let line = await Self.line(startingWith: "ACCEPT ", in: output.fileHandleForReading)
        guard let portText = line.split(separator: ":").last, let port = Int(portText) else {
            kill(process.processIdentifier, SIGKILL)
            throw TLSServerError("openssl s_server printed \"\(line)\" instead of its address")
        }
        self.port = port
    }

    // SIGKILL, not SIGTERM: a child spawned by the test process may inherit SIGTERM blocked.
    // Not waited for here (`waitUntilExit` spins on Linux); Foundation reaps the child.
    deinit { kill(process.processIdentifier, SIGKILL) }

    private static func waitForExit(_ process: Process) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            process.terminationHandler = { _ in continuation.resume() }
            if !process.isRunning {
                process.terminationHandler = nil
                continuation.resume()
            }
        }
    }

    private static func line(startingWith prefix: String, in handle: FileHandle) async -> String {
        let stream = AsyncStream<Data> { continuation in
            handle.readabilityHandler = { handle in
                let data = handle.availableData
                if data.isEmpty {
                    handle.readabilityHandler = nil
                    continuation.finish()
                } else {
                    continuation.yield(data)
                }
            }
        }
        var text = ""
        for await data in stream {
            text += String(decoding: data, as: UTF8.self)
            for line in text.split(separator: "\n") where line.hasPrefix(prefix) {
                handle.readabilityHandler = nil
                return String(line)
            }
        }
        return text
    }
}

struct TLSServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
