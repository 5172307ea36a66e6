import PriceWatchCore

extension Silence {
    /// The silence as one JSON object, as `pricewatch silence list --format json` prints it and
    /// `/api/silences` answers: id, rule, symbol (one of them null), starts_at, ends_at,
    /// created_at, comment, and whether it is active at `now`.
    public func json(now: Timestamp) -> String {
        var json = JSONWriter()
        json.string("id", id)
        switch target {
        case .rule(let rule):
            json.string("rule", rule)
            json.string("symbol", nil)
        case .symbol(let symbol):
            json.string("rule", nil)
            json.string("symbol", symbol)
        }
        json.time("starts_at", startsAt)
        json.time("ends_at", endsAt)
        json.time("created_at", createdAt)
        json.string("comment", comment)
        json.boolean("active", isActive(at: now))
        return json.result
    }
}
