import Foundation
import Synchronization

/// A `pricewatch run` process whose output a test watches line by line.
///
/// Waiting is always for an event (a line to appear, the process to exit) through
/// ``waitFor(_:timeout:_:)``: a missed event fails the test naming it, never hangs it. The
/// process is started with ``TestProcesses`` and killed when the test lets go of it.
public final class RunningDaemon: Sendable {
    private let process: Process
    private let lines = LineBuffer()

    final class LineBuffer: Sendable {
        let state = Mutex<(output: [String], error: [String])>(([], []))
        func withLock<T>(_ body: (inout (output: [String], error: [String])) -> T) -> T { state.withLock { body(&$0) } }
    }

    /// - Parameter launcher: a program that runs the daemon (its arguments first, then the
    ///   built `pricewatch`, then `arguments`), such as `systemd-socket-activate`; nil: none.
    public init(arguments: [String], directory: String = RepositoryFiles.root, environment: [String: String] = [:],
                launcher: (executable: String, arguments: [String])? = nil) throws {
        let process = Process()
        if let launcher {
            process.executableURL = URL(fileURLWithPath: launcher.executable)
            process.arguments = launcher.arguments + [CommandRunner.executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: CommandRunner.executable)
            process.arguments = arguments
        }
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        self.process = process
        let lines = self.lines
        PipeDrain.start(output, name: "daemon output", onData: Self.lineReader { line in lines.withLock { $0.output.append(line) } })
        PipeDrain.start(error, name: "daemon error", onData: Self.lineReader { line in lines.withLock { $0.error.append(line) } })
        try TestProcesses.launch(process)
    }

    deinit { TestProcesses.terminate(process) }

    private static func lineReader(_ emit: @escaping @Sendable (String) -> Void) -> @Sendable (Data) -> Void {
        let partial = Mutex(Data())
        return { data in
            let complete = partial.withLock { buffer -> [String] in
                buffer.append(data)
                var found: [String] = []
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    found.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
                return found
            }
            complete.forEach(emit)
        }
    }

    public var outputLines: [String] { lines.withLock { $0.output } }
    public var errorLines: [String] { lines.withLock { $0.error } }
    public var isRunning: Bool { process.isRunning }

    /// Waits until `condition` holds on the output lines; throws ``WaitTimedOut`` naming
    /// `what` (with the last lines of standard error) if the deadline passes, and fails at
    /// once if the process exits first.
    public func waitForOutput(_ what: String, timeout: Duration = defaultWaitTimeout,
                              _ condition: ([String]) -> Bool) async throws {
        try await waitUntil("\(what) on the daemon's standard output; standard error ends: \(errorTail)", timeout: timeout) {
            if condition(outputLines) { return true }
            if !process.isRunning {
                guard condition(outputLines) else {
                    throw WaitAbandoned(what: "\(what) on the daemon's standard output",
                                        reason: "it exited with status \(process.terminationStatus); standard error ends: \(errorTail)")
                }
                return true
            }
            return false
        }
    }

    /// Sends `signal` and waits for the process to exit; returns its status.
    public func stop(signal: Int32 = SIGTERM, timeout: Duration = defaultWaitTimeout) async throws -> Int32 {
        kill(process.processIdentifier, signal)
        return try await waitForExit(timeout: timeout)
    }

    public func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the process to exit and returns its status; when the deadline passes it kills
    /// the process and throws.
    public func waitForExit(timeout: Duration = defaultWaitTimeout) async throws -> Int32 {
        do {
            try await waitUntil("the daemon to exit; standard error ends: \(errorTail)", timeout: timeout) { !process.isRunning }
        } catch {
            TestProcesses.terminate(process)
            throw error
        }
        TestProcesses.forget(process)
        return process.terminationStatus
    }

    private var errorTail: [String] { errorLines.suffix(5) }
}
