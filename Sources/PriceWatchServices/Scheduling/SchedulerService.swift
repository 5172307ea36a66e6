import ServiceLifecycle

/// The ``JobScheduler`` as a lifecycle service: it runs the jobs until graceful shutdown,
/// which cancels the waits and any run in progress (a cancelled run stays owed; see
/// ``JobScheduler``).
public struct SchedulerService<C: Clock<Duration>>: Service {
    let scheduler: JobScheduler<C>

    public init(scheduler: JobScheduler<C>) {
        self.scheduler = scheduler
    }

    public func run() async throws {
        let scheduler = self.scheduler
        await cancelWhenGracefulShutdown {
            await scheduler.run()
            // Without jobs the scheduler returns at once; a service that ends early would stop
            // the whole group, so it stays until shutdown.
            try? await gracefulShutdown()
        }
    }
}
