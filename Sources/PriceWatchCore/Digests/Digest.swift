/// A digest as it is sent: the period's top movers, its alerts with their delivery state, the
/// markets' state and any further sections (portfolio, paper account). The presentation
/// target renders it as a notification of kind `digest` (`DigestNotification`), which goes
/// through the outbox like every notification.
public struct Digest: Sendable, Hashable {

    /// The `[[digest]]`'s name.
    public var name: String
    public var period: DigestPeriod
    /// `start ..< due`.
    public var window: Range<Timestamp>
    /// The IANA time zone times are shown in.
    public var timeZone: String
    public var movers: TopMovers
    /// The alerts of the period, oldest first, with their deliveries.
    public var alerts: [AlertRecord]
    public var markets: [DigestMarketState]
    /// What ``DigestSection``s added, in their order.
    public var sections: [DigestSectionContent]
    /// Chart images (PNG) shown in the HTML and attached to the message, in this order.
    public var charts: [DigestChart]

    public init(name: String, period: DigestPeriod, window: Range<Timestamp>, timeZone: String, movers: TopMovers,
                alerts: [AlertRecord], markets: [DigestMarketState], sections: [DigestSectionContent] = [],
                charts: [DigestChart] = []) {
        self.name = name
        self.period = period
        self.window = window
        self.timeZone = timeZone
        self.movers = movers
        self.alerts = alerts
        self.markets = markets
        self.sections = sections
        self.charts = charts
    }
}

/// A market's state when the digest was made (from the ``MarketHours`` port).
public struct DigestMarketState: Sendable, Hashable {
    public var market: MarketIdentifier
    public var status: MarketStatus

    public init(market: MarketIdentifier, status: MarketStatus) {
        self.market = market
        self.status = status
    }
}

/// The extension point for parts of a digest that other features own (a portfolio's value,
/// a paper account's positions): each conforming type turns the period into a titled block
/// of lines, or `nil` when it has nothing to say. The digest shows them after the alerts, in
/// the order they are given, in every format.
public protocol DigestSection: Sendable {
    /// The section for the period `window` of the digest `settings` describe (its `portfolios`
    /// and `paper` choose what a performance section shows).
    func content(for window: Range<Timestamp>, settings: DigestSettings) async throws -> DigestSectionContent?
}

/// A block a ``DigestSection`` adds: a heading and plain lines (escaped in HTML).
public struct DigestSectionContent: Sendable, Hashable {
    public var title: String
    public var lines: [String]

    public init(title: String, lines: [String]) {
        self.title = title
        self.lines = lines
    }
}

/// A symbol's chart in a digest: PNG bytes from a ``ChartRenderer``.
public struct DigestChart: Sendable, Hashable {
    public var symbol: String
    public var png: [UInt8]

    public init(symbol: String, png: [UInt8]) {
        self.symbol = symbol
        self.png = png
    }

    /// `chart-BTC-USD.png`: the symbol with every character but letters, digits, `-` and `_`
    /// written as `_`, so the name is safe in MIME headers and `cid:` references.
    public var attachment: NotificationAttachment {
        let safe = String(symbol.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_")
                ? Character(scalar) : "_"
        })
        return NotificationAttachment(filename: "chart-\(safe).png", contentType: "image/png", bytes: png)
    }
}
