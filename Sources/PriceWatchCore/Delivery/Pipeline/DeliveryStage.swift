/// One step of the outbox's decision for a sink, as Alertmanager's notification pipeline has
/// stages: silences, quiet hours, the rate limit, grouping.
///
/// The contract:
/// - A stage is pure: it reads the ``SinkPass`` (its settings, the time, the silences, the
///   recent attempts) and changes only the pass. No I/O, no clock, no randomness: the same
///   pass in gives the same pass out, so each stage is tested with a table.
/// - It sees only the ``SinkPass/candidates`` the stages before it left undecided. It may take
///   some out and decide them (``SinkPass/decide(_:)`` a silence or a hold, or
///   ``SinkPass/start(_:released:)`` an attempt), leave them for the stages after it, or
///   leave them for a later pass (dropping them from the candidates undecided: they stay
///   pending in the outbox).
/// - An attempt takes a slot; a stage starts one only while ``SinkPass/startable`` is above
///   zero. Whatever must wait asks for a wake-up (``SinkPass/wake(at:)``) or, when only a
///   finishing attempt can free it, sets ``SinkPass/waitsForSlot``.
/// - Order matters and is the pipeline's (``DeliveryPipeline/standard``): a silenced alert
///   is never held, a held one never counts against the rate limit.
public protocol DeliveryStage: Sendable {
    /// Decides what it can of `pass`.
    func apply(to pass: inout SinkPass)
}
