import PriceWatchCore

/// Decodes Yahoo Finance's per-symbol headline feed,
/// `https://feeds.finance.yahoo.com/rss/2.0/headline?s=AAPL&region=US&lang=en-US` (RSS 2.0).
///
/// Pure: the answer's body in, headlines or an error out. Rules (docs/news-feed-decoder-notes.md):
/// - the body is at most ``maximumBodyBytes``, UTF-8, an XML document whose root is `<rss>`
///   with a `<channel>`; anything else (HTML, JSON, another encoding, a DOCTYPE, a processing
///   instruction without data, XML that is not well-formed) throws a `malformedResponse`
///   naming the feed, what was expected and what was found;
/// - the XML is read by libxml2 (``RSSFeedReader``), opened on the first decode: without it
///   (apt libxml2) decoding throws a `permanent` error with the dynamic loader's message;
/// - at most ``maximumItems`` items are read, in the feed's order;
/// - an item without a title, without an `http`/`https` link, or without a `pubDate` in RFC 822
///   form (``RFC822Date``) is skipped;
/// - text is cleaned: runs of whitespace become one space, other control characters are
///   removed; a title over ``NewsHeadline/maximumTitleLength`` characters is cut with `…`, a
///   description over ``maximumSummaryLength`` likewise;
/// - `guid` falls back to the link; an item whose guid or link an earlier item had is left out.
public enum YahooNewsFeedDecoder {
    /// The largest body read: Yahoo's answers are a few kilobytes. The reader's own limit.
    public static let maximumBodyBytes = RSSFeedReader.maximumDocumentBytes
    /// The most items read from one answer (Yahoo lists about 20).
    public static let maximumItems = 200
    /// The longest description kept, in characters.
    public static let maximumSummaryLength = 1000

    /// The headlines of one answer of the feed for `symbol`.
    public static func decode(_ body: [UInt8], symbol: String) throws(ProviderError) -> [NewsHeadline] {
        let feed = "yahoo news feed for \(symbol)"
        func failure(_ expected: String, _ found: String) -> ProviderError {
            ProviderError(.malformedResponse, "\(feed): expected \(expected), found \(found)")
        }
        guard body.count <= maximumBodyBytes else {
            throw failure("at most \(maximumBodyBytes) bytes (2 MB)", "\(body.count) bytes")
        }
        let start = startOfMarkup(body)
        guard start < body.count, body[start] == UInt8(ascii: "<") else {
            throw failure("an RSS document (XML)", ProviderAnswer.snippet(body))
        }
        if isHTML(body[start...]) {
            throw failure("an RSS document (XML)", "an HTML page")
        }
        if let offset = body.firstIndex(of: 0) {
            throw failure("UTF-8 XML", "a NUL byte at offset \(offset)")
        }
        guard String(validating: body, as: UTF8.self) != nil else {
            throw failure("UTF-8 XML", "bytes that are not UTF-8")
        }
        if let encoding = declaredEncoding(body, from: start), encoding.lowercased() != "utf-8" {
            throw failure("UTF-8 XML", encoding.isEmpty ? "an encoding declaration it cannot read" : "encoding=\(ControlCharacters.shown(encoding))")
        }
        // A DOCTYPE is refused before libxml2 sees it. RSS needs none (Yahoo sends none), and a
        // DTD is where entities are declared: external ones (`<!ENTITY x SYSTEM "file:///…">`)
        // and nested or long internal ones that expand a small body into gigabytes ("billion
        // laughs") or into seconds of work (one 50 KB entity referenced thousands of times).
        // RSSFeedReader substitutes none and declares none (a reference is an error), but the
        // check does not rely on the reader's settings. Without a DOCTYPE only the five
        // predefined entities exist.
        if hasDoctype(body, from: start) {
            throw failure("an RSS document without a DOCTYPE", "<!DOCTYPE (entity declarations are not read)")
        }
        if let offset = emptyProcessingInstruction(body, from: start) {
            throw failure("an RSS document without empty processing instructions", "<?…?> at offset \(offset)")
        }
        switch RSSFeedReader.read(body, maximumItems: maximumItems) {
        case .items(let items):
            return headlines(items, symbol: symbol)
        case .notRSS(let root):
            throw failure("an RSS document (<rss>)", root.lowercased() == "html" ? "an HTML page" : "<\(ControlCharacters.shortened(root))>")
        case .noChannel:
            throw failure("<channel> in <rss>", "none")
        case .noElement:
            throw failure("an RSS document (XML)", ProviderAnswer.snippet(body))
        case .malformed(let code, let line, let column):
            throw failure("well-formed XML", "an error at line \(line), column \(column) (libxml2 error \(code))")
        case .tooLarge(let bytes):
            throw failure("at most \(maximumBodyBytes) bytes (2 MB)", "\(bytes) bytes")
        case .libraryUnavailable(let reason):
            throw libraryUnavailable(reason, feed: feed)
        }
    }

    /// The error when libxml2 cannot be loaded: `reason` is what the loader said
    /// (``RSSFeedReader/libraryFailure()``). Permanent: a retry finds the same machine.
    package static func libraryUnavailable(_ reason: String, feed: String) -> ProviderError {
        ProviderError(.permanent, "\(feed): expected \(RSSFeedReader.libraryName) (apt libxml2) to read the rss, found \(reason)")
    }

    /// The items that make headlines, cleaned, in the feed's order, each story once.
    static func headlines(_ items: [RSSFeedReader.Item], symbol: String) -> [NewsHeadline] {
        var seen = Set<String>()
        var headlines: [NewsHeadline] = []
        for item in items {
            guard let title = item.title.map({ shortened(collapsed($0), to: NewsHeadline.maximumTitleLength) }),
                  !title.isEmpty,
                  let link = item.link.flatMap(webLink),
                  let publishedAt = item.pubDate.flatMap({ RFC822Date.parse(collapsed($0)) })
            else { continue }
            let guid = item.guid.map(collapsed).flatMap { $0.isEmpty ? nil : $0 } ?? link
            guard !seen.contains(guid), !seen.contains(link) else { continue }
            seen.insert(guid)
            seen.insert(link)
            let source = item.source.map(collapsed).flatMap { $0.isEmpty ? nil : $0 }
            let summary = item.description.map { shortened(collapsed($0), to: maximumSummaryLength) }.flatMap { $0.isEmpty ? nil : $0 }
            headlines.append(NewsHeadline(symbol: symbol, title: title, link: link, guid: guid, publishedAt: publishedAt,
                                          sourceName: source, summary: summary))
        }
        return headlines
    }

    /// `text` with every run of whitespace (tab, CR and LF among it) as one space, no leading or
    /// trailing space, and every other control character (``ControlCharacters``) removed.
    static func collapsed(_ text: String) -> String {
        var result = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !result.isEmpty
            } else if !ControlCharacters.isControl(scalar) {
                if pendingSpace {
                    result.unicodeScalars.append(" ")
                    pendingSpace = false
                }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` itself when it has at most `limit` characters; otherwise its first characters and
    /// `…`, `limit` characters in all (cut between characters, never inside one).
    static func shortened(_ text: String, to limit: Int) -> String {
        guard let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex), end < text.endIndex else {
            return text
        }
        var kept = text[..<text.index(before: end)]
        while kept.last == " " { kept.removeLast() }
        return String(kept) + "…"
    }

    /// The link when it is an `http` or `https` URL with something after the scheme and no
    /// space or control character in it; `nil` otherwise (`javascript:`, `data:`, relative links).
    static func webLink(_ text: String) -> String? {
        let link = collapsed(text)
        guard !link.contains(" ") else { return nil }
        let lower = link.lowercased()
        for scheme in ["https://", "http://"] where lower.hasPrefix(scheme) {
            return link.count > scheme.count ? link : nil
        }
        return nil
    }

    // MARK: - The bytes before libxml2

    /// Where the markup starts: after a UTF-8 byte order mark and XML whitespace.
    static func startOfMarkup(_ body: [UInt8]) -> Int {
        var index = body.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < body.count, isXMLSpace(body[index]) { index += 1 }
        return index
    }

    static func isXMLSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Whether the markup opens as an HTML page does (`<!DOCTYPE html`, `<html`), in any case.
    static func isHTML(_ markup: ArraySlice<UInt8>) -> Bool {
        startsCaseInsensitive(markup, "<!doctype html") || startsCaseInsensitive(markup, "<html")
    }

    /// The `encoding` of the XML declaration (`<?xml version="1.0" encoding="UTF-8"?>`), when
    /// it has one; `""` when the declaration names an encoding in a form this does not read
    /// (no `=`, no closing quote). Checked because libxml2 follows it: in UTF-16, EBCDIC or UTF-7
    /// the markup (and a DOCTYPE) would not be the ASCII bytes the checks here look for, and
    /// libxml2 2.9.14 dies switching a push parser to UTF-7 (found by fuzz-yahoo-news, with a
    /// declaration that never closed). The declaration is read up to its first `>`, or to the
    /// end of the body when it has none: none of its legal values holds one.
    static func declaredEncoding(_ body: [UInt8], from start: Int) -> String? {
        guard startsCaseInsensitive(body[start...], "<?xml") else { return nil }
        let end = body[start...].firstIndex(of: UInt8(ascii: ">")) ?? body.count
        guard let name = firstIndex(of: "encoding", in: body, from: start), name < end else { return nil }
        var index = name + "encoding".utf8.count
        while index < end, isXMLSpace(body[index]) { index += 1 }
        guard index < end, body[index] == UInt8(ascii: "=") else { return "" }
        index += 1
        while index < end, isXMLSpace(body[index]) { index += 1 }
        guard index < end, body[index] == UInt8(ascii: "\"") || body[index] == UInt8(ascii: "'") else { return "" }
        let quote = body[index]
        let valueStart = index + 1
        guard let valueEnd = body[valueStart..<end].firstIndex(of: quote), valueEnd > valueStart else { return "" }
        return String(decoding: body[valueStart..<valueEnd], as: UTF8.self)
    }

    /// Whether the prolog (what comes before the first element: the XML declaration,
    /// processing instructions, comments and whitespace) holds a DOCTYPE, the only place one
    /// can be. A `<!DOCTYPE` later (in a CDATA section, say) is text, or an error libxml2 reports.
    static func hasDoctype(_ body: [UInt8], from start: Int) -> Bool {
        var index = start
        while index < body.count {
            while index < body.count, isXMLSpace(body[index]) { index += 1 }
            let rest = body[index...]
            if startsCaseInsensitive(rest, "<!doctype") { return true }
            if rest.starts(with: "<?".utf8), let end = firstIndex(of: "?>", in: body, from: index + 2) {
                index = end + 2
            } else if rest.starts(with: "<!--".utf8), let end = firstIndex(of: "-->", in: body, from: index + 4) {
                index = end + 3
            } else {
                return false
            }
        }
        return false
    }

    /// Where the first processing instruction without data (`<?name?>`) starts, if the body has
    /// one. libxml2 hands such an instruction's data to its SAX callback as a null pointer, and
    /// FoundationXML's `XMLParser` (swift-corelibs-foundation), which read the feed before
    /// RSSFeedReader called libxml2 itself, declared that argument non-optional and read it: the
    /// process died on address zero (found by fuzz-yahoo-news). RSSFeedReader installs no
    /// processing-instruction callback, but the rule stays, so answers are refused as before: RSS
    /// has no use for processing instructions, and one anywhere, even in a CDATA section or a
    /// comment, refuses the body. The scan may also match a `<?name…?>` whose name libxml2 would end earlier; that
    /// is a syntax error (a space is required after the name), refused anyway.
    static func emptyProcessingInstruction(_ body: [UInt8], from start: Int) -> Int? {
        var index = start
        while let open = firstIndex(of: "<?", in: body, from: index) {
            var end = open + 2
            while end < body.count, !isXMLSpace(body[end]), body[end] != UInt8(ascii: "?") { end += 1 }
            if end > open + 2, end + 1 < body.count, body[end] == UInt8(ascii: "?"), body[end + 1] == UInt8(ascii: ">") {
                return open
            }
            index = open + 2
        }
        return nil
    }

    static func startsCaseInsensitive(_ bytes: ArraySlice<UInt8>, _ prefix: String) -> Bool {
        guard bytes.count >= prefix.utf8.count else { return false }
        return zip(bytes, prefix.utf8).allSatisfy { byte, expected in
            let lower = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            return lower == expected
        }
    }

    /// Where `needle` (ASCII) first occurs in `body` at or after `from`.
    static func firstIndex(of needle: String, in body: [UInt8], from: Int) -> Int? {
        let pattern = Array(needle.utf8)
        guard let first = pattern.first, from <= body.count - pattern.count else { return nil }
        var index = from
        while index <= body.count - pattern.count {
            if body[index] == first, body[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}
