import Foundation

/// Runs `Tests/Fixtures/webhook/verify_standard_webhooks.py`, which checks recorded requests
/// with the Standard Webhooks reference library for Python (installed by `scripts/setup`):
/// an implementation that shares no code with ours.
public enum StandardWebhooksVerifier {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// One line per request: `ok <id>` or `fail <id>: <reason>`. Throws when the script could
    /// not run or (with `expectingSuccess`) did not accept every request.
    public static func verify(_ requests: [RecordedRequest], secret: String, expectingSuccess: Bool = true) async throws -> [String] {
        let document: [String: Any] = [
            "secret": secret,
            "requests": requests.map { request in
                [
                    "headers": Dictionary(request.headers.map { ($0.name, $0.value) }) { first, _ in first },
                    "body_base64": Data(request.body).base64EncodedString(),
                ] as [String: Any]
            },
        ]
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("webhook-requests-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: document).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", RepositoryFiles.path("Tests/Fixtures/webhook/verify_standard_webhooks.py"), input.path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let status = try await TestProcesses.run(process, "the Standard Webhooks verifier")
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        if status == 2 || (status != 0 && status != 1) {
            throw Failure(description: "the Standard Webhooks verifier could not run (exit \(status)): \(problems)")
        }
        if expectingSuccess && status != 0 {
            throw Failure(description: "the Standard Webhooks verifier rejected requests: \(lines) \(problems)")
        }
        return lines
    }
}
