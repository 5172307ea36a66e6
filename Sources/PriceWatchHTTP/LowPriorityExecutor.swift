#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// A task executor on one thread of its own at the lowest scheduling priority (nice 19): the
/// endpoint's request handling runs here, so however many clients ask, the pollers, the
/// evaluator and the dispatcher (on Swift's cooperative pool, at normal priority) get the
/// processor first.
final class LowPriorityExecutor: TaskExecutor, Sendable {
    private let jobs = Mutex<[UnownedJob]>([])
    private let wake = DispatchSemaphore(value: 0)

    init(name: String) {
        let thread = Thread { [self] in
            Self.lowerThisThreadsPriority()
            while true {
                wake.wait()
                guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.name = name
        thread.start()
    }

    /// Gives the calling thread the lowest scheduling priority (nice 19).
    static func lowerThisThreadsPriority() {
        #if canImport(Glibc)
        // Linux keeps the nice value per thread: `who` 0 is this thread only.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        #endif
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        wake.signal()
    }
}
