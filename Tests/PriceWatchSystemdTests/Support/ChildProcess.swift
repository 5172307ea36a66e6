import Foundation
import PriceWatchTestKit

/// A process a test starts, with its output in files of a temporary directory.
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
        try process.run()
    }

    /// Runs a command to its end; returns its status and output.
    static func run(_ executable: String, _ arguments: [String], in directory: String,
                    environment: [String: String] = [:]) async throws -> (status: Int32, output: String, error: String) {
        let child = try ChildProcess(executable, arguments, in: directory, environment: environment)
        let status = await child.waitForExit(deadline: 600)
        return (status ?? -1, child.output, child.errorOutput)
    }

    var pid: Int32 { process.processIdentifier }
    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var errorOutput: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the process to exit; its status, or nil (and SIGKILL) after the deadline.
    func waitForExit(deadline seconds: Double = 30) async -> Int32? {
        let end = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < end { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        return process.terminationStatus
    }
}
