/// An error of a store port (``RuleStateStore`` and the others) that says whether the same write may succeed later.
///
/// A store throws errors of its own types; conforming to this protocol lets the services tell
/// an outage (a full disk, an I/O error, a lock: keep the work and try again) from a failure a
/// retry cannot cure, without knowing the store's types.
public protocol TransientStoreError: Error {
    /// True when the store refused the operation for a reason outside the data, which may
    /// clear up (the same write may succeed later).
    var isTransient: Bool { get }
}
