import PriceWatchCore
import PriceWatchTOML

/// Reads the main file's `[news]` table (`docs/events.md`, "News"): the headline feed's
/// address and how often it is read. Its defaults when not written.
extension MainFileReader {
    static let newsKeys = ["interval", "base_url"]

    func readNews(_ root: TableReader) -> NewsSettings {
        var settings = NewsSettings()
        guard let value = root["news"] else { return settings }
        guard case .table(let table) = value else {
            root.error("expected a table ([news] with interval = \"15m\"), found \(value.kindDescription)", key: "news")
            return settings
        }
        let reader = root.nested("news", values: table)
        reader.checkUnknownKeys(allowed: Self.newsKeys)
        if let interval = reader.duration("interval") {
            if interval < NewsSettings.minimumInterval {
                reader.error("expected at least \(NewsSettings.minimumInterval) between reads of a feed, found \(interval)",
                             key: "interval")
            } else {
                settings.interval = interval
            }
        }
        if let url = url("base_url", reader) { settings.baseURL = url }
        return settings
    }
}
