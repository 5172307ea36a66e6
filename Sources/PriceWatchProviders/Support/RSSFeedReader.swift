import CLibXML2

/// The items of an RSS 2.0 document (`<rss><channel><item>…`), read by libxml2's push parser
/// with SAX2 callbacks (CLibXML2: libxml2.so.2 opened with dlopen on the first read): the text
/// of each item's direct children as the feed wrote them, before any rule of a decoder.
///
/// The caller checks the bytes first (``YahooNewsFeedDecoder`` does: size, UTF-8, no
/// DOCTYPE); the reader itself never resolves an entity beyond the five predefined ones, never
/// loads a DTD and never opens a network connection, whatever the document says.
///
/// Synchronous and CPU-only once libxml2 is loaded (the document is in memory): a feed of a few
/// kilobytes is read in well under a millisecond on the caller's thread. The first read opens
/// the library, a few milliseconds of file access once per process.
package enum RSSFeedReader {
    /// One `<item>`: the text (character data and CDATA) of the children a headline needs.
    /// The first of two same-named children counts.
    package struct Item: Sendable, Hashable {
        package var title: String?
        package var link: String?
        package var guid: String?
        package var description: String?
        package var pubDate: String?
        package var source: String?

        package init(title: String? = nil, link: String? = nil, guid: String? = nil, description: String? = nil,
                     pubDate: String? = nil, source: String? = nil) {
            self.title = title
            self.link = link
            self.guid = guid
            self.description = description
            self.pubDate = pubDate
            self.source = source
        }
    }

    /// What reading found.
    package enum Outcome: Sendable, Hashable {
        /// The channel's items, at most the `maximumItems` first.
        case items([Item])
        /// The document's root element is not `<rss>`.
        case notRSS(root: String)
        /// An `<rss>` document without a `<channel>`.
        case noChannel
        /// No element at all (an empty or blank body, or one too short to start parsing).
        case noElement
        /// Not well-formed XML: libxml2's error code and where it stopped.
        case malformed(code: Int, line: Int, column: Int)
        /// More than ``maximumDocumentBytes``: not given to libxml2.
        case tooLarge(bytes: Int)
        /// libxml2 could not be loaded: what the dynamic loader said (``libraryFailure()``).
        case libraryUnavailable(String)
    }

    /// The largest document read, the news feed decoder's limit: 2 MB (libxml2's own limits,
    /// without XML_PARSE_HUGE, are 10 MB for one text node or name and stay in force).
    package static let maximumDocumentBytes = 2 * 1024 * 1024

    /// The library opened on first use.
    package static let libraryName = "libxml2.so.2"

    /// libxml2's XML_ERR_INVALID_CHAR: a character XML 1.0 does not allow (a C0 control
    /// character, raw or as `&#x1b;`). In recovery mode libxml2 drops it and goes on; the reader
    /// does too, so one stray control character costs that character, not the whole feed.
    static let invalidCharacterError = Int(XML_ERR_INVALID_CHAR.rawValue)

    /// How libxml2 parses: recovering from the errors the reader tolerates (it stops at any
    /// other itself), never opening a network connection, and reading UTF-8 whatever an encoding
    /// declaration says. Not set: XML_PARSE_NOENT (entities are not substituted),
    /// XML_PARSE_DTDLOAD, DTDATTR and DTDVALID (no DTD is loaded), XML_PARSE_HUGE.
    static let parserOptions = Int32(XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue)

    /// Loads libxml2 (once per process): nil when it is ready, otherwise what is missing, in the
    /// loader's words (`cannot load libxml2.so.2: …`).
    package static func libraryFailure() -> String? {
        pricewatch_libxml2_load().map { String(cString: $0) }
    }

    /// Reads `document`, stopping after `maximumItems` items.
    package static func read(_ document: [UInt8], maximumItems: Int) -> Outcome {
        guard document.count <= maximumDocumentBytes else { return .tooLarge(bytes: document.count) }
        // The first four bytes open the parser, as they tell libxml2 the encoding (a UTF-8 byte
        // order mark is skipped there); fewer than four are too short to start parsing.
        guard document.count >= 4 else { return .noElement }
        if let failure = libraryFailure() { return .libraryUnavailable(failure) }
        let collector = Collector(maximumItems: maximumItems)
        var handler = Collector.handler()
        withExtendedLifetime(collector) {
            let context = Unmanaged.passUnretained(collector).toOpaque()
            document.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { text in
                    guard let start = text.baseAddress,
                          let parser = xmlCreatePushParserCtxt(&handler, context, start, 4, nil)
                    else {
                        collector.firstError = (Int(XML_ERR_NO_MEMORY.rawValue), 0, 0)
                        return
                    }
                    defer {
                        // An entity declaration makes libxml2 build a document to hold it even
                        // for SAX; freeing the parser does not free it.
                        if let made = parser.pointee.myDoc { xmlFreeDoc(made) }
                        xmlFreeParserCtxt(parser)
                    }
                    _ = xmlCtxtUseOptions(parser, parserOptions)
                    collector.parser = parser
                    // The size fits: at most 2 MB. The result is the last error, which the
                    // collector has seen (or caused, stopping) already.
                    _ = xmlParseChunk(parser, start + 4, Int32(text.count - 4), 1)
                    collector.parser = nil
                }
            }
        }
        return collector.outcome
    }

    /// The SAX callbacks' state: a path of open elements and the item being read.
    private final class Collector {
        let maximumItems: Int
        /// The parser while it runs, so a callback can stop it.
        var parser: xmlParserCtxtPtr?
        var path: [String] = []
        var root: String?
        var sawChannel = false
        var items: [Item] = []
        var itemsStarted = 0
        var item: Item?
        /// The child of the item whose text is being gathered, and its bytes so far (libxml2
        /// hands text in pieces: runs of characters, each reference, each CDATA section).
        var field: String?
        var text: [UInt8] = []
        /// Set when the collector stopped the parser itself (the item limit, a root that is not
        /// `<rss>`, the first error): later callbacks are the stop's, not the document's.
        var stopped = false
        var firstError: (code: Int, line: Int, column: Int)?

        init(maximumItems: Int) {
            self.maximumItems = maximumItems
        }

        var outcome: Outcome {
            guard let root else {
                if let firstError { return .malformed(code: firstError.code, line: firstError.line, column: firstError.column) }
                return .noElement
            }
            guard root == "rss" else { return .notRSS(root: root) }
            if let firstError { return .malformed(code: firstError.code, line: firstError.line, column: firstError.column) }
            return sawChannel ? .items(items) : .noChannel
        }

        /// The SAX2 handler whose callbacks reach the collector passed as libxml2's user data.
        /// Every other callback is left out: no document is built, no entity is looked up or
        /// declared (a reference to one other than the five predefined is an error), processing
        /// instructions and comments are skipped.
        static func handler() -> xmlSAXHandler {
            var handler = xmlSAXHandler()
            handler.initialized = UInt32(XML_SAX2_MAGIC)
            handler.startElementNs = { context, localName, prefix, _, _, _, _, _, _ in
                guard let collector = Collector.collector(context), let localName else { return }
                collector.start(Collector.qualifiedName(localName, prefix))
            }
            handler.endElementNs = { context, _, _, _ in
                Collector.collector(context)?.end()
            }
            handler.characters = { context, characters, length in
                Collector.collector(context)?.append(characters, length)
            }
            handler.ignorableWhitespace = handler.characters
            handler.cdataBlock = { context, value, length in
                Collector.collector(context)?.append(value, length)
            }
            handler.serror = { context, error in
                guard let collector = Collector.collector(context), let error else { return }
                collector.failed(error.pointee)
            }
            return handler
        }

        static func collector(_ context: UnsafeMutableRawPointer?) -> Collector? {
            context.map { Unmanaged<Collector>.fromOpaque($0).takeUnretainedValue() }
        }

        /// The name as the document wrote it: `prefix:local`, or `local`.
        static func qualifiedName(_ localName: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?) -> String {
            let local = String(cString: localName)
            guard let prefix else { return local }
            return String(cString: prefix) + ":" + local
        }

        func start(_ elementName: String) {
            guard !stopped else { return }
            switch path.count {
            case 0:
                root = elementName
                if elementName != "rss" { return stop() }
            case 1 where elementName == "channel" && path[0] == "rss":
                sawChannel = true
            case 2 where elementName == "item" && path[1] == "channel":
                guard itemsStarted < maximumItems else { return stop() }
                itemsStarted += 1
                item = Item()
            case 3 where item != nil && path[2] == "item":
                field = elementName
                text = []
            default:
                break
            }
            path.append(elementName)
        }

        func end() {
            guard !stopped, !path.isEmpty else { return }
            path.removeLast()
            if path.count == 3, let name = field {
                store(name, String(decoding: text, as: UTF8.self))
                field = nil
                text = []
            } else if path.count == 2, let finished = item {
                items.append(finished)
                item = nil
            }
        }

        func append(_ bytes: UnsafePointer<xmlChar>?, _ length: Int32) {
            guard field != nil, !stopped, let bytes, length > 0 else { return }
            text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(length)))
        }

        /// An error or warning: the first error other than an invalid character stops the
        /// parser (recovery would go on, with a document libxml2 guessed at). Warnings do not
        /// count: libxml2 gives them about well-formed documents (a namespace name that is not
        /// an absolute URI, say).
        func failed(_ error: xmlError) {
            let code = Int(error.code)
            guard !stopped, firstError == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue,
                  code != RSSFeedReader.invalidCharacterError
            else { return }
            firstError = (code, Int(error.line), Int(error.int2))
            stop()
        }

        private func stop() {
            stopped = true
            if let parser { xmlStopParser(parser) }
        }

        private func store(_ name: String, _ value: String) {
            switch name {
            case "title" where item?.title == nil: item?.title = value
            case "link" where item?.link == nil: item?.link = value
            case "guid" where item?.guid == nil: item?.guid = value
            case "description" where item?.description == nil: item?.description = value
            case "pubDate" where item?.pubDate == nil: item?.pubDate = value
            case "source" where item?.source == nil: item?.source = value
            default: break
            }
        }
    }
}
