import FuzzSupport
import PriceWatchCore
import PriceWatchProviders

/// Yahoo's per-symbol headline feed (RSS through libxml2's push parser, opened with dlopen). Beyond no
/// crash: an answer is at most 200 headlines, each story once, with an http(s) link, a title of
/// 1 to 300 characters and no control character in any text; an error is one malformed-response
/// message that names the feed.
@main
enum FuzzYahooNewsTarget {
    static func main() {
        runFuzzer { data, size in
            guard let data else { return 0 }
            return fuzzYahooNews(data, size)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYahooNews(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let headlines: [NewsHeadline]
    do {
        headlines = try YahooNewsFeedDecoder.decode(input.bytes, symbol: "AAPL")
    } catch {
        guard error.kind == .malformedResponse, error.message.hasPrefix("yahoo news feed for AAPL: expected ") else {
            fatalError("yahoo-news: an error of another form: \(error.kind) \(error.message)")
        }
        return 0
    }
    guard headlines.count <= YahooNewsFeedDecoder.maximumItems else {
        fatalError("yahoo-news: \(headlines.count) headlines")
    }
    var seen = Set<String>()
    for headline in headlines {
        let lower = headline.link.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { fatalError("yahoo-news: link \(headline.link)") }
        guard (1...NewsHeadline.maximumTitleLength).contains(headline.title.count) else {
            fatalError("yahoo-news: a title of \(headline.title.count) characters")
        }
        for text in [headline.title, headline.link, headline.guid, headline.sourceName ?? "", headline.summary ?? ""]
        where ControlCharacters.contains(text) {
            fatalError("yahoo-news: a control character in \(ControlCharacters.quoted(text))")
        }
        guard seen.insert(headline.guid).inserted, headline.guid == headline.link || seen.insert(headline.link).inserted else {
            fatalError("yahoo-news: the story \(headline.guid) twice")
        }
    }
    return 0
}
