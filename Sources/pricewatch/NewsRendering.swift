import FoundationEssentials
import PriceWatchCore

/// How `pricewatch news` prints headlines: JSON Lines exactly as `docs/commands.md` says, or
/// one block of lines per symbol.
enum NewsRendering {
    /// `{"symbol":…,"feed":…,"headlines":[{"time":…,"source":…,"title":…,"link":…,"guid":…,"summary":…}]}`,
    /// `null` where the feed gives nothing, `[]` for a symbol without headlines.
    static func jsonLine(symbol: String, headlines: [NewsHeadline], feed: String) -> String {
        var writer = JSONWriter()
        writer.string("symbol", symbol)
        writer.string("feed", feed)
        writer.objects("headlines", headlines.map { headline in
            var item = JSONWriter()
            item.time("time", headline.publishedAt)
            item.string("source", headline.sourceName)
            item.string("title", headline.title)
            item.string("link", headline.link)
            item.string("guid", headline.guid)
            item.string("summary", headline.summary)
            return item.result
        })
        return writer.result
    }

    /// The symbol, then per headline `  TIME  SOURCE  TITLE` and `    LINK` (the outlet `-` when
    /// the feed names none; times as ``LocalTimeText/stamp(_:zone:)`` writes them);
    /// `no headlines for SYMBOL` alone when there are none.
    static func text(symbol: String, headlines: [NewsHeadline], zone: TimeZone?) -> [String] {
        let shownSymbol = ControlCharacters.escaped(symbol)
        guard !headlines.isEmpty else { return ["no headlines for \(shownSymbol)"] }
        var lines = [shownSymbol]
        for headline in headlines {
            let source = headline.sourceName.map(ControlCharacters.escaped) ?? "-"
            lines.append("  \(LocalTimeText.stamp(headline.publishedAt, zone: zone))  \(source)  \(ControlCharacters.escaped(headline.title))")
            lines.append("    \(ControlCharacters.escaped(headline.link))")
        }
        return lines
    }
}
