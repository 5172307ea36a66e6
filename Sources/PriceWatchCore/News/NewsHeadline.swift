/// One news headline about one symbol, as a news feed listed it.
///
/// Every text field is already clean when a decoder builds one: whitespace collapsed to
/// single spaces, no control characters, the title at most ``maximumTitleLength``
/// characters. `guid` identifies the story within its feed (two headlines with the same
/// `guid` are the same story); feeds without one use the link.
public struct NewsHeadline: Sendable, Hashable {
    /// The symbol whose feed listed the headline, as the caller wrote it (`AAPL`).
    public var symbol: String
    /// The headline itself, at most ``maximumTitleLength`` characters.
    public var title: String
    /// The story's address: always an `http` or `https` URL.
    public var link: String
    /// The feed's identifier of the story (RSS `<guid>`), or `link` when the feed gave none.
    public var guid: String
    /// When the story was published, by the feed's own date.
    public var publishedAt: Timestamp
    /// The outlet that published the story (`Reuters`), when the feed names one.
    public var sourceName: String?
    /// The feed's teaser for the story (RSS `<description>`), when it gave one.
    public var summary: String?

    /// The longest title a headline keeps, in characters (a longer one is cut and ends with `…`).
    public static let maximumTitleLength = 300

    /// A headline; `guid` defaults to `link`, as RSS readers do when an item has no `<guid>`.
    public init(symbol: String, title: String, link: String, guid: String? = nil, publishedAt: Timestamp,
                sourceName: String? = nil, summary: String? = nil) {
        self.symbol = symbol
        self.title = title
        self.link = link
        self.guid = guid ?? link
        self.publishedAt = publishedAt
        self.sourceName = sourceName
        self.summary = summary
    }
}
