import ServiceLifecycle

/// Stops the daemon when the store becomes unusable: waits for the first fault of a
/// ``StoreFaultWatch`` and throws it, which ends the service group (the daemon then exits with
/// ``Daemon/stateUnusableStatus``). Ends quietly at graceful shutdown.
public struct StoreFaultService: Service {
    let watch: StoreFaultWatch

    public init(watch: StoreFaultWatch) {
        self.watch = watch
    }

    public func run() async throws {
        let watch = self.watch
        let fault = await withGracefulShutdownHandler {
            await watch.firstFault()
        } onGracefulShutdown: {
            watch.finish()
        }
        if let fault { throw fault }
    }
}
