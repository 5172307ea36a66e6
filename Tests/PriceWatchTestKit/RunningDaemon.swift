import Foundation
import Synchronization

/// A `pricewatch run` process whose output a test watches line by line.
///
/// Waiting is always for an event (a line to appear, the process to exit) with a generous
/// deadline that only a broken build would reach; no test waits for time to pass.
public final class RunningDaemon: Sendable {
    private let process: Process
    private let lines = LineBuffer()

    final class LineBuffer: Sendable {
        let state = Mutex<(output: [String], error: [String])>(([], []))
        func withLock<T>(_ body: (inout (output: [String], error: [String])) -> T) -> T { state.withLock { body(&$0) } }
    }

    public init(arguments: [String], directory: String = RepositoryFiles.root) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        self.process = process
        let lines = self.lines
        output.fileHandleForReading.readabilityHandler = Self.lineReader { line in lines.withLock { $0.output.append(line) } }
        error.fileHandleForReading.readabilityHandler = Self.lineReader { line in lines.withLock { $0.error.append(line) } }
        try process.run()
    }

    private static func lineReader(_ emit: @escaping @Sendable (String) -> Void) -> @Sendable (FileHandle) -> Void {
        let partial = Mutex(Data())
        return { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                return
            }
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

    /// Waits until `condition` holds on the output lines; false if the process exits or the
    /// deadline passes first.
    public func waitForOutput(deadline seconds: Double = 60, _ condition: ([String]) -> Bool) async -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition(outputLines) { return true }
            if !process.isRunning { return condition(outputLines) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(outputLines)
    }

    /// Sends `signal` and waits for the process to exit; returns its status.
    public func stop(signal: Int32 = SIGTERM, deadline seconds: Double = 30) async -> Int32? {
        kill(process.processIdentifier, signal)
        return await waitForExit(deadline: seconds)
    }

    public func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    public func waitForExit(deadline seconds: Double = 30) async -> Int32? {
        let end = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < end { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        return process.terminationStatus
    }
}
