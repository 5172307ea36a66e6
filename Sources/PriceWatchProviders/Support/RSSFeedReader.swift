import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The items of an RSS 2.0 document (`<rss><channel><item>…`), read by Foundation's
/// `XMLParser` (libxml2's SAX parser): the text of each item's direct children as the feed
/// wrote them, before any rule of a decoder.
///
/// The caller checks the bytes first (``YahooNewsFeedDecoder`` does: size, UTF-8, no
/// DOCTYPE); the reader itself never resolves an external entity, whatever the document says.
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
    }

    /// libxml2's XML_ERR_INVALID_CHAR: a character XML 1.0 does not allow (a C0 control
    /// character, raw or as `&#x1b;`). libxml2 drops it and goes on; the reader does too, so
    /// one stray control character costs that character, not the whole feed.
    static let invalidCharacterError = 9

    /// Reads `document`, stopping after `maximumItems` items.
    package static func read(_ document: [UInt8], maximumItems: Int) -> Outcome {
        let parser = XMLParser(data: Data(document))
        // No external entity (a DTD, `<!ENTITY x SYSTEM "file:///…">`) is ever fetched or read.
        parser.shouldResolveExternalEntities = false
        parser.externalEntityResolvingPolicy = .never
        parser.shouldProcessNamespaces = false
        let collector = Collector(maximumItems: maximumItems)
        parser.delegate = collector
        _ = parser.parse()
        return collector.outcome
    }

    /// The SAX callbacks: a path of open elements and the item being read.
    private final class Collector: NSObject, XMLParserDelegate {
        let maximumItems: Int
        var path: [String] = []
        var root: String?
        var sawChannel = false
        var items: [Item] = []
        var itemsStarted = 0
        var item: Item?
        /// The child of the item whose text is being gathered, and the text so far.
        var field: String?
        var text = ""
        /// Set when the collector stopped the parser itself (the item limit, a root that is not
        /// `<rss>`): later errors are the stop's, not the document's.
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

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String]) {
            guard !stopped else { return }
            switch path.count {
            case 0:
                root = elementName
                if elementName != "rss" { stop(parser) }
            case 1 where elementName == "channel" && path[0] == "rss":
                sawChannel = true
            case 2 where elementName == "item" && path[1] == "channel":
                guard itemsStarted < maximumItems else { return stop(parser) }
                itemsStarted += 1
                item = Item()
            case 3 where item != nil && path[2] == "item":
                field = elementName
                text = ""
            default:
                break
            }
            path.append(elementName)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            guard !stopped, !path.isEmpty else { return }
            path.removeLast()
            if path.count == 3, let name = field {
                store(name, text)
                field = nil
                text = ""
            } else if path.count == 2, let finished = item {
                items.append(finished)
                item = nil
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if field != nil, !stopped { text += string }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            if field != nil, !stopped { text += String(decoding: CDATABlock, as: UTF8.self) }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            let code = (parseError as NSError).code
            guard !stopped, firstError == nil, code != RSSFeedReader.invalidCharacterError else { return }
            firstError = (code, parser.lineNumber, parser.columnNumber)
            stop(parser)
        }

        private func stop(_ parser: XMLParser) {
            stopped = true
            parser.abortParsing()
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
