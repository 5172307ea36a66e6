import PriceWatchCore

extension Digest {
    /// The digest as one JSON object (`pricewatch digest --preview --format json`, and the
    /// `kind = "digest"` body of plain webhooks): `name`, `period`, `window_start`, `window_end`
    /// (RFC 3339, UTC), `time_zone`, `gainers` and `losers` (each `symbol`, `from`, `to`,
    /// `change_percent`), `without_data` (symbols), `alerts` (each `id`, `rule`, `symbol`,
    /// `time`, `price`, `message`, and `deliveries`: `sink`, `status`, `attempts`), `markets`
    /// (`market`, `open`, `until`), `sections` (`title`, `lines`) and `charts` (attachment
    /// file names; the images travel as attachments, never inside the JSON).
    public func json() -> String {
        func mover(_ mover: TopMovers.Mover) -> String {
            var json = JSONWriter()
            json.string("symbol", mover.symbol)
            json.number("from", mover.from)
            json.number("to", mover.to)
            json.number("change_percent", mover.percentChange)
            return json.result
        }
        var json = JSONWriter()
        json.string("name", name)
        json.string("period", period.rawValue)
        json.time("window_start", window.lowerBound)
        json.time("window_end", window.upperBound)
        json.string("time_zone", timeZone)
        json.objects("gainers", movers.gainers.map(mover))
        json.objects("losers", movers.losers.map(mover))
        json.strings("without_data", movers.withoutData)
        json.objects("alerts", alerts.map { record in
            var alert = JSONWriter()
            alert.string("id", record.alert.id)
            alert.string("rule", record.alert.rule)
            alert.string("symbol", record.alert.symbol)
            alert.time("time", record.alert.time)
            alert.number("price", record.alert.price)
            alert.string("message", record.alert.message)
            alert.objects("deliveries", record.deliveries.map { delivery in
                var json = JSONWriter()
                json.string("sink", delivery.sink)
                json.string("status", delivery.status.rawValue)
                json.integer("attempts", delivery.attempts)
                return json.result
            })
            return alert.result
        })
        json.objects("markets", markets.map { state in
            var market = JSONWriter()
            market.string("market", state.market.rawValue)
            market.boolean("open", state.status.isOpen)
            market.time("until", state.status.nextKnownChange)
            return market.result
        })
        json.objects("sections", sections.map { section in
            var json = JSONWriter()
            json.string("title", section.title)
            json.strings("lines", section.lines)
            return json.result
        })
        json.strings("charts", charts.map(\.attachment.filename))
        return json.result
    }
}
