/// Alerts an operator's silence covers now are recorded as silenced, never attempted
/// (`docs/silences.md`). Other kinds of notification are never silenced.
public struct SilenceStage: DeliveryStage {
    public init() {}

    public func apply(to pass: inout SinkPass) {
        guard let silences = pass.silences, !silences.isEmpty else { return }
        var rest: [Delivery] = []
        for delivery in pass.candidates {
            if let silence = silences.silence(for: delivery.notification, at: pass.now) {
                pass.decide(.silence(delivery, by: silence))
            } else {
                rest.append(delivery)
            }
        }
        pass.candidates = rest
    }
}
