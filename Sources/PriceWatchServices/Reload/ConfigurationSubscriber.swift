import PriceWatchCore

/// A service that takes its part of every new configuration from the ``ReloadCoordinator``:
/// the sink registry its sinks, the poll schedule its providers and symbols, the evaluator its
/// rules (and a calendar scheduler, later, its jobs).
///
/// A reload runs in three phases, each over every subscriber in the order they were given:
///
/// 1. ``pause()``: stop work that must not overlap the switch (the pollers stop, so no poll
///    is evaluated half under the old rules and half under the new). Quick; never fails.
/// 2. ``apply(_:now:)``: take the new setup. A subscriber may refuse it by throwing (the
///    evaluator, when the rule state cannot be loaded): the subscribers after it are not
///    called, those before it get the running setup again, and the running configuration
///    stays.
/// 3. ``resume(with:)``: carry on with the setup that now runs (the new one, or the old one
///    after a refusal).
///
/// A setup handed to a subscriber is already validated: everything that can be judged without
/// running (syntax, types, references between tables) was checked before phase 1.
public protocol ConfigurationSubscriber: Sendable {
    /// Phase 1: stop what must not overlap the switch.
    func pause() async
    /// Phase 2: take `setup`'s part, or throw to refuse it. `now`: the wall-clock time.
    func apply(_ setup: ServiceSetup, now: Timestamp) async throws
    /// Phase 3: carry on under `setup`, the one that now runs.
    func resume(with setup: ServiceSetup) async
}

extension ConfigurationSubscriber {
    public func pause() async {}
    public func resume(with setup: ServiceSetup) async {}
}
