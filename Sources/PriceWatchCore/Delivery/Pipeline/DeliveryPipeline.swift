/// The stages an outbox pass runs, in order, on each sink's due deliveries: the pure
/// decision of what to attempt, record or hold (``DeliveryAction``), which the dispatcher
/// carries out. A new rule of delivery is a new ``DeliveryStage`` and its place in
/// ``standard``.
public struct DeliveryPipeline: Sendable {
    public let stages: [any DeliveryStage]

    public init(stages: [any DeliveryStage]) {
        self.stages = stages
    }

    /// Silences, quiet hours' hold, the rate limit, quiet hours' release, grouping.
    public static let standard = DeliveryPipeline(stages: [
        SilenceStage(), QuietHoursStage(), RateLimitStage(), QuietReleaseStage(), GroupingStage(),
    ])

    /// `pass` after every stage.
    public func run(_ pass: SinkPass) -> SinkPass {
        var pass = pass
        for stage in stages { stage.apply(to: &pass) }
        return pass
    }
}
