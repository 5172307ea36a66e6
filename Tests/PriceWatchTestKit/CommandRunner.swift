import Foundation
import Synchronization

/// Runs the built `pricewatch` executable, as a user or a script would.
public enum CommandRunner {
    /// What a finished command printed and returned.
    public struct Result: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
        public var outputLines: [String] { standardOutput.split(separator: "\n").map(String.init) }
        public var errorLines: [String] { standardError.split(separator: "\n").map(String.init) }
    }

    /// The `pricewatch` binary next to the running test bundle (the same build).
    public static var executable: String {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [directory, directory.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("pricewatch").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return RepositoryFiles.path(".build/debug/pricewatch")
    }

    /// Runs `pricewatch` with `arguments` in `directory` and waits for it to exit. A command
    /// still running after `timeout` is killed and the call throws ``WaitTimedOut``.
    ///
    /// The wait suspends the calling task and blocks a thread of its own: the cooperative pool
    /// has one thread per core, and a test blocking one of two while a command runs starved
    /// every other test's waits and in-process services on a loaded machine.
    public static func run(_ arguments: [String], in directory: String = RepositoryFiles.root,
                           environment: [String: String] = [:], timeout: Duration = defaultWaitTimeout) async throws -> Result {
        try await run(program: executable, arguments, in: directory, environment: environment, timeout: timeout)
    }

    /// Runs another program (a test's reference script: `/usr/bin/env python3 …`) the same
    /// way, with the same deadline.
    public static func run(program: String, _ arguments: [String], in directory: String = RepositoryFiles.root,
                           environment: [String: String] = [:], timeout: Duration = defaultWaitTimeout) async throws -> Result {
        await slots.acquire()
        do {
            let result = try await offPool {
                try runBlocking(program: program, arguments, in: directory, environment: environment, timeout: timeout)
            }
            await slots.release()
            return result
        } catch {
            await slots.release()
            throw error
        }
    }

    /// At most four commands a core run at once, first come first served, so that the suite's
    /// start does not launch a command for every test together (the commands need the same CPU
    /// either way; the cap on tests at once is `scripts/test`'s, docs/development.md).
    static let slots = CommandSlots(ProcessInfo.processInfo.activeProcessorCount * 4)

    private static func runBlocking(program: String, _ arguments: [String], in directory: String,
                                    environment: [String: String], timeout: Duration) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "PRICEWATCH_CONFIG")
        env.merge(environment) { $1 }
        process.environment = env
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try TestProcesses.launch(process)
        defer { TestProcesses.terminate(process) }
        // A watchdog thread (not a dispatch timer: hundreds of pending ones were seen to crash
        // libdispatch's event loop) kills the command when the deadline passes.
        let timedOut = Flag()
        let exited = DispatchSemaphore(value: 0)
        defer { exited.signal() }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        Thread {
            guard exited.wait(timeout: .now() + seconds) == .timedOut, process.isRunning else { return }
            timedOut.value.store(true, ordering: .relaxed)
            TestProcesses.terminate(process)
        }.start()
        // Read both pipes to the end before waiting, so a large output never blocks the child.
        let errorData = Mutex(Data())
        let errorRead = DispatchGroup()
        errorRead.enter()
        Thread {
            errorData.withLock { $0 = error.fileHandleForReading.readDataToEndOfFile() }
            errorRead.leave()
        }.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errorRead.wait()
        if timedOut.value.load(ordering: .relaxed) {
            throw WaitTimedOut(what: "\(program) \(arguments.joined(separator: " ")) to exit (killed)", timeout: timeout)
        }
        return Result(status: process.terminationStatus,
                      standardOutput: String(decoding: outputData, as: UTF8.self),
                      standardError: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
    }

    private final class Flag: Sendable {
        let value = Atomic(false)
    }
}

/// A first-come-first-served count of free slots, awaited without blocking a thread.
actor CommandSlots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { free = max(1, count) }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the slot to the longest waiter, or frees it.
    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
