import Logging
import ServiceLifecycle

/// The dispatcher as a lifecycle service: on graceful shutdown it stops taking deliveries
/// and finishes those in flight within a bound. It is listed first in the service group, so
/// it is shut down last, after the pollers stopped producing alerts.
public struct DispatchService<C: Clock<Duration>>: Service {
    let dispatcher: DeliveryDispatcher<C>
    let shutdownGrace: Duration

    public init(dispatcher: DeliveryDispatcher<C>, shutdownGrace: Duration = .seconds(10)) {
        self.dispatcher = dispatcher
        self.shutdownGrace = shutdownGrace
    }

    public func run() async throws {
        let dispatcher = self.dispatcher
        await withGracefulShutdownHandler {
            await dispatcher.run(shutdownGrace: shutdownGrace)
        } onGracefulShutdown: {
            Task { await dispatcher.stop() }
        }
    }
}
