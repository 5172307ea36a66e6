import Foundation
import PriceWatchTestKit

/// A process a test starts (with ``TestProcesses``: killed when the test lets go of it), with
/// its output in files of a temporary directory.
final class ChildProcess: Sendable {
    let process: Process
    let outputPath: String
    let errorPath: String

    /// Starts `executable` with `arguments` in `directory`, adding `environment` to this
    /// process's.
    init(_ executable: String, _ arguments: [String], in directory: String, environment: [String: String] = [:],
         removing removed: [String] = []) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment
        for name in removed { env.removeValue(forKey: name) }
        env.merge(environment) { $1 }
        process.environment = env
        // The output goes to a directory of its own, never into `directory` (which may be the
        // repository).
        let outputDirectory = try TemporaryDirectory()
        outputPath = outputDirectory.file("stdout")
        errorPath = outputDirectory.file("stderr")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        process.standardInput = FileHandle.nullDevice
        try TestProcesses.launch(process)
    }

    deinit { TestProcesses.terminate(process) }

    /// Runs a command to its end; returns its status and output.
    static func run(_ executable: String, _ arguments: [String], in directory: String,
                    environment: [String: String] = [:]) async throws -> (status: Int32, output: String, error: String) {
        let child = try ChildProcess(executable, arguments, in: directory, environment: environment)
        let status = try await child.waitForExit(timeout: .seconds(600))
        return (status, child.output, child.errorOutput)
    }

    var pid: Int32 { process.processIdentifier }
    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var errorOutput: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the process to exit and returns its status; after the deadline it kills the
    /// process and throws ``WaitTimedOut``.
    func waitForExit(timeout: Duration = defaultWaitTimeout) async throws -> Int32 {
        let name = process.arguments?.first { !$0.hasPrefix("-") && $0 != "KILL" } ?? "the process"
        do {
            try await waitUntil("\(name) to exit; standard error ends: \(errorOutput.suffix(500))", timeout: timeout) {
                !process.isRunning
            }
        } catch {
            TestProcesses.terminate(process)
            throw error
        }
        TestProcesses.forget(process)
        return process.terminationStatus
    }
}
