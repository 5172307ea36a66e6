/// During a sink's quiet hours (`quiet`), what falls due is held until they end: still
/// pending, no attempt counted. Alerts of urgent rules and test messages are never held.
public struct QuietHoursStage: DeliveryStage {
    public init() {}

    public func apply(to pass: inout SinkPass) {
        guard let quiet = pass.settings.quietHours, let release = quiet.release(at: pass.now) else { return }
        var held: [Delivery] = []
        var rest: [Delivery] = []
        for delivery in pass.candidates {
            let urgent = delivery.notification.alert.map { pass.urgentRules.contains($0.rule) } ?? false
            if delivery.notification.kind == .test || urgent {
                rest.append(delivery)
            } else {
                held.append(delivery)
            }
        }
        if !held.isEmpty { pass.decide(.hold(held, until: release, quiet: quiet)) }
        pass.candidates = rest
    }
}
