/// Whether a market's regular session is under way at an instant, and until when.
///
/// A lunch break is a closed period: a market with a break is `open` until the break starts,
/// then `closed` until the afternoon session opens.
public enum MarketStatus: Sendable, Hashable {
    /// In a regular session that ends (at its close or at the start of a break) at `until`.
    case open(until: Timestamp)
    /// Outside any regular session (night, weekend, holiday, break) until `until`, the next
    /// open; nil when the calendar knows no later session (past the end of its data).
    case closed(until: Timestamp?)

    /// Whether the regular session is under way.
    public var isOpen: Bool {
        if case .open = self { return true }
        return false
    }

    /// The instant of the next change: the close (or break) when open, the next open when closed.
    public var nextChange: Timestamp? {
        switch self {
        case .open(let until): until
        case .closed(let until): until
        }
    }

    /// ``nextChange``, or nil for a market that never closes (open until the end of time,
    /// `Timestamp(milliseconds: .max)`): what is shown as the next open or close.
    public var nextKnownChange: Timestamp? {
        nextChange.flatMap { $0.milliseconds == .max ? nil : $0 }
    }
}
