import CLibXML2
import PriceWatchCore
import PriceWatchProviders
import Testing

/// Yahoo Finance's per-symbol headline feed (RSS 2.0): the recorded shapes, the item rules,
/// and hostile bodies (truncated, huge, HTML, entity tricks).
@Suite struct YahooNewsFeedDecoderTests {
    static let fixtures: Set<String> = [
        "headline_AAPL.xml", "headline_MSFT_duplicate_guids.xml", "headline_NOSUCHTICKER_empty_channel.xml",
    ]

    private func fixture(_ file: String) throws -> [UInt8] { try ProviderFixtures.bytes("yahoo-news", file) }

    private func decode(_ text: String, symbol: String = "AAPL") throws(ProviderError) -> [NewsHeadline] {
        try YahooNewsFeedDecoder.decode(Array(text.utf8), symbol: symbol)
    }

    /// The message of the error decoding `text` throws (a test that expects one fails without it).
    private func message(_ text: String, symbol: String = "AAPL") throws -> String {
        try message(Array(text.utf8), symbol: symbol)
    }

    private func message(_ body: [UInt8], symbol: String = "AAPL") throws -> String {
        let error = try #require(throws: ProviderError.self) { try YahooNewsFeedDecoder.decode(body, symbol: symbol) }
        #expect(error.kind == .malformedResponse)
        return error.message
    }

    /// A feed of `items` (each the inside of one `<item>`).
    private func feed(_ items: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <rss version="2.0"><channel><description>Latest Financial News for AAPL</description>
        \(items.map { "<item>\($0)</item>" }.joined(separator: "\n"))
        <title>Yahoo! Finance: AAPL News</title></channel></rss>
        """
    }

    private static let date = "<pubDate>Thu, 26 Nov 2026 14:03:00 +0000</pubDate>"
    private static let time = Timestamp(seconds: 1_795_701_780)

    // MARK: - Recorded shapes

    @Test func theNormalAnswerDecodesToItsFiveHeadlines() throws {
        let headlines = try YahooNewsFeedDecoder.decode(try fixture("headline_AAPL.xml"), symbol: "AAPL")
        let expected = [
            NewsHeadline(symbol: "AAPL", title: "Apple Suppliers Signal a Stronger Holiday Quarter",
                         link: "https://finance.yahoo.com/news/apple-suppliers-signal-stronger-holiday-140300512.html?.tsrc=rss",
                         guid: "3f1c2a9e-7b4d-3e58-9a61-0c2d4e6f8a10", publishedAt: Timestamp(seconds: 1_795_701_780),
                         summary: "Shares of the iPhone maker rose in early trading after suppliers in Asia reported stronger November orders than analysts had expected."),
            NewsHeadline(symbol: "AAPL", title: "Analyst Raises Apple Target on Services Growth & Margins",
                         link: "https://finance.yahoo.com/news/analyst-raises-apple-target-services-131500774.html?.tsrc=rss",
                         guid: "8d0e5b47-21c9-3a7f-b3e2-5f6a7b8c9d01", publishedAt: Timestamp(seconds: 1_795_698_900),
                         summary: "The company\u{2019}s services segment is on track for another record year, according to a note from a brokerage that raised its price target."),
            NewsHeadline(symbol: "AAPL", title: "2 Tech Stocks Make Up a Third of This Famous Portfolio",
                         link: "https://www.fool.com/investing/2026/11/26/2-tech-stocks-a-third-of-the-portfolio/?.tsrc=rss",
                         guid: "c27a9f13-6e0b-3d42-8c5f-1a2b3c4d5e6f", publishedAt: Timestamp(seconds: 1_795_693_200),
                         summary: "Two of the largest technology stocks hold nearly a third of the portfolio; here is how the holdings changed last quarter."),
            NewsHeadline(symbol: "AAPL", title: "Tech Stocks Lead Premarket Gains",
                         link: "https://finance.yahoo.com/video/tech-stocks-lead-premarket-093012345.html?.tsrc=rss",
                         guid: "5b8e0d26-94a1-3c7b-a0d9-e8f7a6b5c4d3", publishedAt: Timestamp(seconds: 1_795_685_412)),
            NewsHeadline(symbol: "AAPL", title: "EU Presses Apple on App Store Payment Rules",
                         link: "https://finance.yahoo.com/news/eu-presses-apple-app-store-payments-221804399.html?.tsrc=rss",
                         guid: "e4d3c2b1-a0f9-3e8d-b7c6-d5e4f3a2b1c0", publishedAt: Timestamp(seconds: 1_795_645_084),
                         sourceName: "Bloomberg",
                         summary: "(Bloomberg) -- European regulators asked the company for more detail on how it plans to open its app store to rival payment systems."),
        ]
        #expect(headlines == expected)
    }

    @Test func theSameStoryTwiceIsOneHeadline() throws {
        let headlines = try YahooNewsFeedDecoder.decode(try fixture("headline_MSFT_duplicate_guids.xml"), symbol: "MSFT")
        // A repeated guid (under another link), a repeated link (under another guid), and an item
        // without guid whose link comes again as a guid: each story once, the first item kept.
        #expect(headlines.map(\.title) == [
            "Microsoft Adds Three Cloud Regions", "AI Spending in Focus for Microsoft Investors", "The Week's Most Traded Large Caps",
        ])
        #expect(headlines.map(\.guid) == [
            "0a1b2c3d-4e5f-3a6b-8c7d-9e0f1a2b3c4d", "1b2c3d4e-5f6a-3b7c-9d8e-0f1a2b3c4d5e",
            "https://www.investors.com/news/technology/most-traded-large-caps-this-week/?.tsrc=rss",
        ])
        #expect(headlines.allSatisfy { $0.symbol == "MSFT" })
        #expect(headlines.map(\.publishedAt) == [Timestamp(seconds: 1_795_705_320), Timestamp(seconds: 1_795_702_200),
                                                 Timestamp(seconds: 1_795_694_400)])
    }

    @Test func anEmptyChannelIsNoHeadlines() throws {
        let body = try fixture("headline_NOSUCHTICKER_empty_channel.xml")
        #expect(try YahooNewsFeedDecoder.decode(body, symbol: "NOSUCHTICKER") == [])
        // The same channel without its metadata, and self-closed.
        #expect(try decode("<rss version=\"2.0\"><channel/></rss>") == [])
    }

    @Test func decodesOnManyThreadsAtOnceAgree() async throws {
        // Each read has its own libxml2 parser and collector, libxml2 is initialised once when
        // it is loaded, and its errors reach the parser's own callback: answers decoded side by
        // side are the answers decoded alone.
        let body = try fixture("headline_AAPL.xml")
        let alone = try YahooNewsFeedDecoder.decode(body, symbol: "AAPL")
        let results = await withTaskGroup(of: [NewsHeadline]?.self) { group in
            for _ in 0..<64 {
                group.addTask { try? YahooNewsFeedDecoder.decode(body, symbol: "AAPL") }
                group.addTask { try? YahooNewsFeedDecoder.decode(Array(body.prefix(500)), symbol: "AAPL") }
            }
            var all: [[NewsHeadline]?] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 128)
        #expect(results.filter { $0 == alone }.count == 64)
        #expect(results.filter { $0 == nil }.count == 64)
    }

    // MARK: - Item rules

    @Test func itemsWithoutTitleLinkOrReadableDateAreSkipped() throws {
        let kept = "<title>Kept</title><link>https://finance.yahoo.com/news/kept.html</link>\(Self.date)"
        let headlines = try decode(feed([
            "<link>https://a.example/no-title</link>\(Self.date)",
            "<title> \n\t </title><link>https://a.example/blank-title</link>\(Self.date)",
            "<title>No link</title>\(Self.date)",
            "<title>Script</title><link>javascript:alert(document.cookie)</link>\(Self.date)",
            "<title>Script, upper case</title><link>JAVASCRIPT:alert(1)</link>\(Self.date)",
            "<title>Data</title><link>data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;</link>\(Self.date)",
            "<title>FTP</title><link>ftp://a.example/file</link>\(Self.date)",
            "<title>Relative</title><link>/news/relative.html</link>\(Self.date)",
            "<title>Scheme only</title><link>https://</link>\(Self.date)",
            "<title>Space inside</title><link>https://a.example/a b</link>\(Self.date)",
            "<title>No date</title><link>https://a.example/no-date</link>",
            "<title>ISO date</title><link>https://a.example/iso</link><pubDate>2026-11-26T14:03:00Z</pubDate>",
            "<title>Bad day</title><link>https://a.example/bad-day</link><pubDate>Mon, 31 Nov 2026 14:03:00 +0000</pubDate>",
            kept,
        ]))
        #expect(headlines == [NewsHeadline(symbol: "AAPL", title: "Kept", link: "https://finance.yahoo.com/news/kept.html",
                                           publishedAt: Self.time)])
        #expect(headlines.first?.guid == "https://finance.yahoo.com/news/kept.html")
    }

    @Test func linksKeepTheirSchemeAsWrittenAndHTTPCounts() throws {
        let headlines = try decode(feed([
            "<title>A</title><link>\n  HTTPS://finance.yahoo.com/news/a.html  \n</link>\(Self.date)",
            "<title>B</title><link>http://finance.yahoo.com/news/b.html</link>\(Self.date)",
        ]))
        #expect(headlines.map(\.link) == ["HTTPS://finance.yahoo.com/news/a.html", "http://finance.yahoo.com/news/b.html"])
    }

    @Test func controlCharactersAreRemovedAndWhitespaceCollapsed() throws {
        // Raw C0 characters and C0 character references are not XML 1.0: libxml2 drops them
        // (and the reader goes on); DEL and C1 are XML and are removed by the decoder; tabs,
        // line breaks and other whitespace become one space.
        let title = "\n\t  Red\u{1B}&#x1b;[31m alert\u{7}&#7;\u{7F}\u{9B}  \t\r\n over\u{85}\u{2028}here&#x9;!  "
        let description = "\u{1}line one\r\nline\u{2029}two\u{8}\u{1F}"
        let headlines = try decode(feed([
            "<title>\(title)</title><link>https://a.example/x</link>\(Self.date)<description>\(description)</description>"
            + "<source url=\"https://a.example/\">\u{1B}[2J Out\u{9F}let </source><guid>\u{1B} id\u{7F}-1 </guid>",
        ]))
        let headline = try #require(headlines.first)
        #expect(headline.title == "Red[31m alert over here !")
        #expect(headline.summary == "line one line two")
        #expect(headline.sourceName == "[2J Outlet")
        #expect(headline.guid == "id-1")
        for text in [headline.title, headline.summary ?? "", headline.sourceName ?? "", headline.guid] {
            #expect(!ControlCharacters.contains(text))
        }
    }

    @Test func aTitleOverThreeHundredCharactersIsCutBetweenCharacters() throws {
        // 👍🏽 is one character of two scalars and eight bytes: a cut inside it would show.
        let thumb = "\u{1F44D}\u{1F3FD}"
        let huge = String(repeating: thumb, count: 131_072)  // 1 MB
        let exact = String(repeating: "a", count: 300)
        let over = String(repeating: "b", count: 299) + " c"
        let headlines = try decode(feed([
            "<title>\(huge)</title><link>https://a.example/huge</link>\(Self.date)",
            "<title>\(exact)</title><link>https://a.example/exact</link>\(Self.date)",
            "<title>\(over)</title><link>https://a.example/over</link>\(Self.date)",
        ]))
        #expect(headlines.count == 3)
        #expect(headlines[0].title == String(repeating: thumb, count: 299) + "…")
        #expect(headlines[0].title.count == NewsHeadline.maximumTitleLength)
        #expect(headlines[1].title == exact)
        // Cut after 299 characters; the space the cut leaves at the end goes.
        #expect(headlines[2].title == String(repeating: "b", count: 299) + "…")
    }

    @Test func aLongDescriptionIsCutLikeATitle() throws {
        let headlines = try decode(feed([
            "<title>T</title><link>https://a.example/t</link>\(Self.date)<description>\(String(repeating: "d", count: 5000))</description>",
        ]))
        #expect(headlines.first?.summary == String(repeating: "d", count: YahooNewsFeedDecoder.maximumSummaryLength - 1) + "…")
    }

    @Test func atMostTwoHundredItemsAreRead() throws {
        let items = (0..<10_000).map { "<title>t\($0)</title><link>https://a.example/\($0)</link><guid>g\($0)</guid>\(Self.date)" }
        let body = feed(items)
        #expect(body.utf8.count < YahooNewsFeedDecoder.maximumBodyBytes)
        let headlines = try decode(body)
        #expect(headlines.count == 200)
        #expect(headlines.map(\.guid) == (0..<200).map { "g\($0)" })

        // Items are counted as read, not as kept: 200 skipped items leave nothing for the 201st.
        let skipped = Array(repeating: "<title>no link</title>\(Self.date)", count: 200)
        #expect(try decode(feed(skipped + ["<title>late</title><link>https://a.example/late</link>\(Self.date)"])) == [])
    }

    @Test func itemTextIsOnlyItsOwnDirectChildren() throws {
        // A channel's <title> is not an item's; an item's nested <title> (inside another
        // element) is not its title; CDATA and character references are text.
        let headlines = try decode(feed([
            "<enclosure><title>nested</title></enclosure><title><![CDATA[Q3 <b>beats</b>]]> &amp; &#169; more</title>"
            + "<link>https://a.example/c</link>\(Self.date)<title>second title</title>",
        ]))
        #expect(headlines.map(\.title) == ["Q3 <b>beats</b> & \u{A9} more"])
    }

    // MARK: - Dates

    @Test(arguments: [
        ("Wed, 26 Nov 2026 14:03:00 +0000", Int64(1_795_701_780)),  // a day name is not checked against the date
        ("Thu, 26 Nov 2026 14:03:00 GMT", Int64(1_795_701_780)),
        ("26 Nov 2026 14:03:00 UT", Int64(1_795_701_780)),
        ("Thu, 26 Nov 2026 14:03 Z", Int64(1_795_701_780)),
        ("Thu, 26 Nov 2026 09:03:00 -0500", Int64(1_795_701_780)),
        ("Thu, 26 Nov 2026 09:03:00 EST", Int64(1_795_701_780)),
        ("Thu, 26 Nov 2026 07:03:00 PDT", Int64(1_795_701_780)),
        ("Fri, 27 Nov 2026 01:33:00 +1130", Int64(1_795_701_780)),
        ("Sun, 6 Dec 2026 00:00:00 GMT", Int64(1_796_515_200)),
        ("Thu, 31 Dec 2026 23:59:60 +0000", Int64(1_798_761_599)),
    ])
    func rfc822Dates(text: String, seconds: Int64) {
        #expect(RFC822Date.parse(text) == Timestamp(seconds: seconds))
    }

    @Test(arguments: [
        "", "2026-11-26T14:03:00Z", "1795701780", "Thu 26 Nov 2026 14:03:00 GMT", "Xyz, 26 Nov 2026 14:03:00 GMT",
        "Thu, 26 nov 2026 14:03:00 GMT", "Thu, 26 Nov 26 14:03:00 GMT", "Thu, 31 Nov 2026 14:03:00 GMT",
        "Thu, 26 Nov 2026 24:00:00 GMT", "Thu, 26 Nov 2026 14:60:00 GMT", "Thu, 26 Nov 2026 14:03:61 GMT",
        "Thu, 26 Nov 2026 14:03:00", "Thu, 26 Nov 2026 14:03:00 CET", "Thu, 26 Nov 2026 14:03:00 +2400",
        "Thu, 26 Nov 2026 14:03:00 +00:00", "Thu, 26 Nov 2026 14:3:00 GMT", "Thu, +6 Nov 2026 14:03:00 GMT",
        "Thu, 26 Nov 2026 14:03:00 GMT extra",
    ])
    func notRFC822Dates(text: String) {
        #expect(RFC822Date.parse(text) == nil)
    }

    // MARK: - Bodies that are not the feed

    @Test func htmlIsAClearError() throws {
        #expect(try message(ProviderFixtures.htmlPage.body)
            == "yahoo news feed for AAPL: expected an RSS document (XML), found an HTML page")
        #expect(try message("\n<html><head><title>Yahoo</title></head><body>consent</body></html>")
            == "yahoo news feed for AAPL: expected an RSS document (XML), found an HTML page")
        // XHTML with an XML declaration is recognised by its root.
        #expect(try message("<?xml version=\"1.0\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><body/></html>", symbol: "MSFT")
            == "yahoo news feed for MSFT: expected an RSS document (<rss>), found an HTML page")
    }

    @Test func otherBodiesNameWhatWasFound() throws {
        #expect(try message(#"{"finance":{"result":null,"error":{"code":"Not Found"}}}"#)
            == #"yahoo news feed for AAPL: expected an RSS document (XML), found {"finance":{"result":null,"error":{"code":"Not Found"}}}"#)
        #expect(try message("") == "yahoo news feed for AAPL: expected an RSS document (XML), found an empty body")
        #expect(try message("Edge: Too Many Requests") == "yahoo news feed for AAPL: expected an RSS document (XML), found Edge: Too Many Requests")
        #expect(try message("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>x</title></feed>")
            == "yahoo news feed for AAPL: expected an RSS document (<rss>), found <feed>")
        #expect(try message("<rss version=\"2.0\"><item><title>x</title></item></rss>")
            == "yahoo news feed for AAPL: expected <channel> in <rss>, found none")
        #expect(try message("<rss><channel><item><title>a</title></item></channel>")
            .hasPrefix("yahoo news feed for AAPL: expected well-formed XML, found an error at line 1, column "))
        #expect(try message("<rss><channel></chanel></rss>").hasPrefix("yahoo news feed for AAPL: expected well-formed XML, found an error"))
        #expect(try message("<rs") == "yahoo news feed for AAPL: expected an RSS document (XML), found <rs")
    }

    @Test func bodiesOverTwoMegabytesAreRefusedUnread() throws {
        let limit = YahooNewsFeedDecoder.maximumBodyBytes
        let padding = String(repeating: " ", count: limit)
        #expect(try message("<rss><channel/></rss>" + padding)
            == "yahoo news feed for AAPL: expected at most 2097152 bytes (2 MB), found \(limit + 21) bytes")
        // Exactly at the limit is read.
        let atLimit = "<rss><channel/></rss>" + String(repeating: " ", count: limit - 21)
        #expect(try decode(atLimit) == [])
    }

    @Test func onlyUTF8IsRead() throws {
        #expect(try message([UInt8]("<rss><channel><title>".utf8) + [0xFF, 0xFE] + [UInt8]("</title></channel></rss>".utf8))
            == "yahoo news feed for AAPL: expected UTF-8 XML, found bytes that are not UTF-8")
        #expect(try message([UInt8]("<rss><channel>".utf8) + [0] + [UInt8]("</channel></rss>".utf8))
            == "yahoo news feed for AAPL: expected UTF-8 XML, found a NUL byte at offset 14")
        // UTF-16 (with or without a byte order mark) has NUL bytes in its markup.
        let utf16: [UInt8] = "<rss><channel/></rss>".utf8.flatMap { byte -> [UInt8] in [byte, 0] }
        #expect(try message([0xFF, 0xFE] + utf16).hasPrefix("yahoo news feed for AAPL: expected "))
        #expect(try message(utf16) == "yahoo news feed for AAPL: expected UTF-8 XML, found a NUL byte at offset 1")
        #expect(try message("<?xml version=\"1.0\" encoding=\"UTF-7\"?><rss><channel/></rss>")
            == "yahoo news feed for AAPL: expected UTF-8 XML, found encoding=\"UTF-7\"")
        #expect(try message("<?xml version='1.0' encoding = 'ISO-8859-1'?><rss><channel/></rss>")
            == "yahoo news feed for AAPL: expected UTF-8 XML, found encoding=\"ISO-8859-1\"")
        // UTF-8 in any case, with a byte order mark, is read.
        #expect(try YahooNewsFeedDecoder.decode([0xEF, 0xBB, 0xBF] + Array("<?xml version=\"1.0\" encoding=\"utf-8\"?><rss><channel/></rss>".utf8),
                                                symbol: "AAPL") == [])
    }

    @Test func truncatedAnswersThrowOrGiveASubset() throws {
        let body = try fixture("headline_AAPL.xml")
        let full = Set(try YahooNewsFeedDecoder.decode(body, symbol: "AAPL"))
        var thrown = 0
        var subsets = 0
        for length in stride(from: 0, to: body.count, by: 97) {
            do {
                let headlines = try YahooNewsFeedDecoder.decode(Array(body[..<length]), symbol: "AAPL")
                #expect(Set(headlines).isSubset(of: full), "cut at \(length)")
                subsets += 1
            } catch {
                #expect(error.kind == .malformedResponse, "cut at \(length)")
                #expect(error.message.hasPrefix("yahoo news feed for AAPL: expected "), "cut at \(length): \(error.message)")
                thrown += 1
            }
        }
        // Every cut of this fixture ends inside the document: each is an error, never a partial feed.
        #expect(thrown == (body.count + 96) / 97)
        #expect(subsets == 0)
    }

    // MARK: - Entities

    /// A DTD declaring an external entity for `/etc/passwd`.
    private static let passwdDoctype = "<!DOCTYPE rss [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>"

    /// An item whose title, description and guid refer to the entity, after `doctype`.
    private static func externalEntity(doctype: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        \(doctype)
        <rss version="2.0"><channel><item><title>before &xxe; after</title>
        <link>https://a.example/xxe</link><pubDate>Thu, 26 Nov 2026 14:03:00 +0000</pubDate>
        <description>&xxe;</description><guid>&xxe;</guid></item></channel></rss>
        """
    }

    @Test func externalEntitiesAreNeverRead() throws {
        let document = Self.externalEntity(doctype: Self.passwdDoctype)
        let text = try message(document)
        #expect(text == "yahoo news feed for AAPL: expected an RSS document without a DOCTYPE, found <!DOCTYPE (entity declarations are not read)")
        #expect(!text.contains("root:"))
        // Behind the DOCTYPE check, the reader does not resolve the entity either: libxml2 runs
        // without XML_PARSE_NOENT or DTD loading, and the reader declares no entity, so the
        // reference is an error. This part guards the reader's settings.
        let outcome = RSSFeedReader.read(Array(document.utf8), maximumItems: 10)
        if case .items(let items) = outcome {
            for item in items {
                for field in [item.title, item.description, item.guid] {
                    #expect(field?.contains("root:") != true, "\(field ?? "")")
                }
            }
        }
        #expect(!"\(outcome)".contains("root:"))
        // The same document without the DOCTYPE is an undeclared entity: an error, not text.
        #expect(try message(Self.externalEntity(doctype: "")).hasPrefix("yahoo news feed for AAPL: expected well-formed XML, found an error"))
    }

    /// Ten levels of ten references: 10^9 copies of "lol", 3 GB, from under 1 KB; `prolog` and
    /// `keyword` place and spell the DOCTYPE.
    private static func billionLaughs(prolog: String = "<?xml version=\"1.0\"?>\n", keyword: String = "<!DOCTYPE") -> String {
        var document = prolog + keyword + " rss [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            document += "<!ENTITY lol\(level) \"\(String(repeating: "&\(previous);", count: 10))\">\n"
        }
        return document + "]>\n<rss version=\"2.0\"><channel><item><title>&lol9;</title><link>https://a.example/lol</link>"
            + "<pubDate>Thu, 26 Nov 2026 14:03:00 +0000</pubDate></item></channel></rss>"
    }

    @Test func entityExpansionIsRefusedBeforeParsing() throws {
        let laughs = Self.billionLaughs()
        #expect(laughs.utf8.count < 1024)
        #expect(try message(laughs)
            == "yahoo news feed for AAPL: expected an RSS document without a DOCTYPE, found <!DOCTYPE (entity declarations are not read)")
        // In any case and after comments and processing instructions: the prolog is where a DOCTYPE is.
        let hidden = Self.billionLaughs(prolog: "<?xml version=\"1.0\"?>\n<!-- a comment --><?pi data?>\n  ", keyword: "<!doctype")
        #expect(try message(hidden).contains("expected an RSS document without a DOCTYPE"))
        // libxml2 itself stops this expansion with an error, never 3 GB of text.
        let outcome = RSSFeedReader.read(Array(laughs.utf8), maximumItems: 10)
        if case .items(let items) = outcome {
            #expect(items.allSatisfy { ($0.title?.utf8.count ?? 0) < 1_000_000 })
        }
    }

    // MARK: - libxml2

    @Test func aMachineWithoutLibxml2IsToldWhatIsMissing() throws {
        // The decoder's error for a failed load, with the failure the loader gives for a library
        // that is not there (the real one is loaded in this process).
        let failure = try #require(pricewatch_libxml2_probe("libpricewatch-missing.so.9").map { String(cString: $0) })
        let error = YahooNewsFeedDecoder.libraryUnavailable(failure, feed: "yahoo news feed for AAPL")
        #expect(error.kind == .permanent)
        #expect(error.message.hasPrefix(
            "yahoo news feed for AAPL: expected libxml2.so.2 (apt libxml2) to read the rss, found cannot load libpricewatch-missing.so.9: "),
            "got: \(error.message)")
    }

    @Test func theReaderRefusesWhatTheDecoderWould() {
        // Its own size limit, the decoder's: libxml2 is never given more.
        let limit = RSSFeedReader.maximumDocumentBytes
        #expect(limit == YahooNewsFeedDecoder.maximumBodyBytes)
        let over = Array("<rss><channel/></rss>".utf8) + Array(repeating: UInt8(ascii: " "), count: limit)
        #expect(RSSFeedReader.read(over, maximumItems: 10) == .tooLarge(bytes: limit + 21))
        // An encoding declaration is not followed: the bytes are read as UTF-8.
        let declared = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss><channel><item><title>caf\u{E9}</title></item></channel></rss>"
        #expect(RSSFeedReader.read(Array(declared.utf8), maximumItems: 10) == .items([RSSFeedReader.Item(title: "caf\u{E9}")]))
    }

    // MARK: - Fuzz findings

    @Test func aProcessingInstructionWithoutDataIsRefusedBeforeItCrashesTheParser() throws {
        // fuzz-yahoo-news: `<?xmBoo?>` made FoundationXML's XMLParser, the reader before
        // libxml2 was called directly, read address zero (libxml2 hands it no data, which it
        // declares non-optional): SIGSEGV, a dead daemon. Still refused, as before.
        let finding = try ProviderFixtures.bytes("../fuzz/yahoo-news", "processing-instruction-without-data.xml")
        #expect(try message(finding)
            == "yahoo news feed for AAPL: expected an RSS document without empty processing instructions, found <?…?> at offset 0")
        for document in [
            "<?xml?><rss><channel/></rss>",
            "<?xml version=\"1.0\"?><rss><channel><?pi?></channel></rss>",
            "<rss><channel><item><title><![CDATA[<?php?>]]></title></item></channel></rss>",
        ] {
            #expect(try message(document).contains("expected an RSS document without empty processing instructions"), "\(document)")
        }
        // With data (or only spaces) libxml2 hands a string: such instructions are read and ignored.
        let spaced = "<?xml version=\"1.0\"?><?xml-stylesheet href=\"a.xsl\"?><rss><channel><?pi ?></channel></rss>"
        #expect(try decode(spaced) == [])
    }

    @Test func anEncodingDeclarationThatNeverClosesIsStillRead() throws {
        // fuzz-yahoo-news: libxml2 switched to UTF-7 for a declaration without `?>` (which the
        // check then skipped) and read address 0x20 in xmlSwitchToEncoding.
        let finding = try ProviderFixtures.bytes("../fuzz/yahoo-news", "encoding-utf7-declaration-not-closed.xml")
        #expect(try message(finding) == "yahoo news feed for AAPL: expected UTF-8 XML, found encoding=\"UTF-7\"")
        #expect(try message("<?xml version=\"1.0\" encoding=\"UTF-7\" <rss><channel/></rss>")
            == "yahoo news feed for AAPL: expected UTF-8 XML, found encoding=\"UTF-7\"")
        for declaration in ["encoding", "encoding=", "encoding=UTF-7", "encoding=\"UTF-7", "encoding=\"\""] {
            #expect(try message("<?xml version=\"1.0\" \(declaration)?><rss><channel/></rss>")
                == "yahoo news feed for AAPL: expected UTF-8 XML, found an encoding declaration it cannot read", "\(declaration)")
        }
    }

    @Test func aDoctypeOutsideThePrologIsText() throws {
        let headlines = try decode(feed([
            "<title>T</title><link>https://a.example/t</link>\(Self.date)"
            + "<description><![CDATA[<!DOCTYPE html><p>teaser</p>]]></description>",
        ]))
        #expect(headlines.first?.summary == "<!DOCTYPE html><p>teaser</p>")
    }
}
