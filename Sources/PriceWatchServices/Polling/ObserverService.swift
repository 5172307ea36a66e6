import ServiceLifecycle

/// Runs a ``DaemonObserver``'s periodic work (watchdog pings, status updates) as a service of
/// the daemon's group, until the group shuts it down.
///
/// The daemon lists it first, so it is shut down last: the watchdog keeps pinging while the
/// pollers stop and the dispatcher drains.
public struct ObserverService: Service {
    let observer: any DaemonObserver

    public init(observer: any DaemonObserver) {
        self.observer = observer
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await observer.run()
        }
    }
}
