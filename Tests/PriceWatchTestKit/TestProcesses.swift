#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// Starts every process a test launches (the `pricewatch` binary, journald, the SMTP server,
/// `openssl s_server`, helper scripts) so that none outlives the test, whatever way the test
/// ends:
///
/// - the owner kills it when the test lets go of it (``terminate(_:)``, from a `deinit` or a
///   `defer`), with its whole process group (Foundation makes each child a group leader, so a
///   script's own children go too);
/// - when the test process exits normally (`atexit`) or on `SIGTERM`, `SIGINT` or `SIGHUP` (as
///   `timeout` and Ctrl-C send), every process still registered is killed with its group;
/// - when the test process dies any other way (a crash, `SIGKILL`), the kernel kills it: it
///   runs under `setpriv --pdeathsig KILL`, started from a thread that lives as long as the
///   test process (the parent-death signal follows the thread that forked, not the process).
///
/// A child that outlived its test held the test's output pipe open, so `swift test` could
/// finish its tests and still never exit; Foundation's own process groups also kept such a
/// child out of reach of `timeout`'s signal to its group.
public enum TestProcesses {
    /// Starts `process` as described above. Its `executableURL` and `arguments` are those of
    /// the command; they are rewritten to run it under `setpriv` (same process id).
    public static func launch(_ process: Process) throws {
        installHandlersOnce
        if let command = process.executableURL?.path, FileManager.default.isExecutableFile(atPath: setpriv) {
            process.executableURL = URL(fileURLWithPath: setpriv)
            process.arguments = ["--pdeathsig", "KILL", "--", command] + (process.arguments ?? [])
        }
        // Forget the process when it exits, so its id is never killed after being reused
        // (a handler set later replaces this; its owner then calls `terminate` or `forget`).
        let previous = process.terminationHandler
        process.terminationHandler = { finished in
            unregister(finished.processIdentifier)
            previous?(finished)
        }
        try Spawner.shared.perform { try process.run() }
        register(process.processIdentifier)
    }

    /// Starts `process`, waits until it exits, and returns its status. When `timeout` passes
    /// first (or the waiting task is cancelled) the process is killed and this throws
    /// ``WaitTimedOut`` naming `what`.
    public static func run(_ process: Process, _ what: @autoclosure () -> String,
                           timeout: Duration = defaultWaitTimeout) async throws -> Int32 {
        try launch(process)
        defer { terminate(process) }
        try await waitUntil("\(what()) to exit", timeout: timeout) { !process.isRunning }
        return process.terminationStatus
    }

    /// Kills `process` and its process group with `SIGKILL` if it still runs, and forgets it.
    /// Safe to call more than once and after the process exited.
    public static func terminate(_ process: Process) {
        let pid = process.processIdentifier
        guard pid > 0 else { return }
        if process.isRunning {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
        unregister(pid)
    }

    /// Forgets `process` (it exited on its own and was waited for).
    public static func forget(_ process: Process) {
        unregister(process.processIdentifier)
    }

    // MARK: The registry, readable from a signal handler

    private static let setpriv = "/usr/bin/setpriv"
    private static let capacity = 1_024
    /// Process ids of live children, 0 for a free slot. Written under `slotsLock`; read
    /// without it only by the signal handler and the exit hook, which kill what they see.
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<pid_t> = {
        let slots = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        slots.initialize(repeating: 0, count: capacity)
        return slots
    }()
    private static let slotsLock = Mutex(())

    private static func register(_ pid: pid_t) {
        slotsLock.withLock { _ in
            for index in 0..<capacity where slots[index] == 0 {
                slots[index] = pid
                return
            }
        }
    }

    private static func unregister(_ pid: pid_t) {
        slotsLock.withLock { _ in
            for index in 0..<capacity where slots[index] == pid { slots[index] = 0 }
        }
    }

    /// Async-signal-safe: only `kill`.
    fileprivate static func killAll() {
        for index in 0..<capacity {
            let pid = slots[index]
            if pid > 0 {
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
            }
        }
    }

    private static let installHandlersOnce: Void = {
        _ = slots
        atexit { TestProcesses.killAll() }
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                TestProcesses.killAll()
                // Then die of the signal as if no handler were installed.
                var original = sigaction()
                original.__sigaction_handler.sa_handler = SIG_DFL
                sigaction(signal, &original, nil)
                raise(signal)
            }
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }()
}

/// A thread that lives as long as the test process and starts every child, with no signal
/// blocked (children inherit the mask: a child started from a thread that blocked `SIGTERM`
/// would ignore `timeout`).
private final class Spawner: @unchecked Sendable {
    static let shared = Spawner()

    // `jobs` is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []

    private init() {
        let thread = Thread { [self] in
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job()
            }
        }
        thread.name = "test-process-spawner"
        thread.start()
    }

    /// Runs `body` on the spawner thread and waits for it (a few milliseconds).
    func perform(_ body: @escaping () throws -> Void) throws {
        let outcome = Outcome()
        condition.lock()
        jobs.append {
            do { try body() } catch { outcome.error = error }
            outcome.done.signal()
        }
        condition.signal()
        condition.unlock()
        outcome.done.wait()
        if let error = outcome.error { throw error }
    }

    /// `error` is written before `done` is signalled and read after it is waited for.
    private final class Outcome: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var error: (any Error)?
    }
}
