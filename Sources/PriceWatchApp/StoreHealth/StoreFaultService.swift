import ServiceLifecycle

/// Stops the daemon when the store becomes unusable: waits for the first fault the store
/// reported to ``StoreFaults`` and throws it, which ends the service group (the daemon then
/// exits with ``Daemon/stateUnusableStatus``). Ends quietly at graceful shutdown.
public struct StoreFaultService: Service {
    let faults: StoreFaults

    public init(faults: StoreFaults) {
        self.faults = faults
    }

    public func run() async throws {
        let faults = self.faults
        let fault = await withGracefulShutdownHandler {
            await faults.firstFault()
        } onGracefulShutdown: {
            faults.finish()
        }
        if let fault { throw fault }
    }
}
