import ServiceLifecycle

/// Runs a service and tells ``DaemonLiveness`` whether the delivery service is running.
public struct DeliveryLivenessService: Service {
    let service: any Service
    let liveness: DaemonLiveness

    public init(_ service: any Service, liveness: DaemonLiveness) {
        self.service = service
        self.liveness = liveness
    }

    public func run() async throws {
        liveness.deliveryRunning(true)
        defer { liveness.deliveryRunning(false) }
        try await service.run()
    }
}
