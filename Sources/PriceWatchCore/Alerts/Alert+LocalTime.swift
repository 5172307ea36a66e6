import FoundationEssentials

extension Alert {
    /// `{{local_time}}`: the quote time in `zone` (an IANA name: the quote's exchange zone, or
    /// the market's from the calendars) with its offset, `2024-10-02 09:30 -04:00`; in UTC
    /// (`2024-10-02 13:30 UTC`) when the zone is unknown or not a zone. The offset, not an
    /// abbreviation: it is exact, also in the hour that repeats when clocks go back.
    func localTime(inZone zone: String?) -> String {
        guard let timeZone = zone.flatMap(TimeZone.init(identifier:)) else {
            return LocalTimeText.text(time, zone: TimeZone(identifier: "UTC") ?? .gmt) + " UTC"
        }
        return LocalTimeText.text(time, zone: timeZone) + " " + LocalTimeText.offset(time, zone: timeZone)
    }
}
