import PriceWatchCore
import PriceWatchPresentation

/// Everything the dashboard shows at one moment, read by the application through the use
/// cases the command line calls.
public struct DashboardSnapshot: Sendable {
    /// One watched symbol.
    public struct Symbol: Sendable {
        public var symbol: String
        public var provider: String?
        /// The last stored price and its time, when there is one.
        public var lastPrice: HistoryPoint?
        /// The previous close the last stored quote carried: what the change is measured
        /// from, as `pricewatch watch` measures it.
        public var previousClose: ExactDecimal?
        /// Open or closed (``MarketHours``); nil when the calendars do not know the symbol's
        /// market (the page says so rather than "open").
        public var market: MarketStatus?
        /// The day's prices from stored history (``PriceHistoryReader``), oldest first; empty
        /// without a reader, and then the sparkline shows the quotes received since start.
        public var dayPoints: [HistoryPoint]
        /// The market's code (`XNYS`, `24/7`) and IANA time zone, nil when unknown: the symbol
        /// page names the market and draws its chart's time axis in the market's zone.
        public var marketName: String?
        public var marketTimeZone: String?
        /// The currency of the last stored quote, when the provider said.
        public var currency: String?
        /// The price levels of the rules that watch the symbol (``Rule/priceLevel``), each
        /// labelled with its rule's id: lines on the symbol page's chart.
        public var levels: [ChartLevel]
        /// The last stored price is older than `stale_after` of its market's trading
        /// (``PriceFreshness``): the watchlist marks it.
        public var isStale: Bool
        public init(symbol: String, provider: String?, lastPrice: HistoryPoint?, previousClose: ExactDecimal? = nil,
                    market: MarketStatus?, dayPoints: [HistoryPoint] = [], marketName: String? = nil,
                    marketTimeZone: String? = nil, currency: String? = nil, levels: [ChartLevel] = [], isStale: Bool = false) {
            self.symbol = symbol
            self.provider = provider
            self.lastPrice = lastPrice
            self.previousClose = previousClose
            self.market = market
            self.dayPoints = dayPoints
            self.marketName = marketName
            self.marketTimeZone = marketTimeZone
            self.currency = currency
            self.levels = levels
            self.isStale = isStale
        }
    }

    /// One alert with each sink's delivery state.
    public struct AlertLine: Sendable {
        public var alert: Alert
        public var deliveries: [(sink: String, status: String)]
        public init(alert: Alert, deliveries: [(sink: String, status: String)]) {
            self.alert = alert
            self.deliveries = deliveries
        }
    }

    /// One provider's health.
    public struct ProviderLine: Sendable {
        public var name: String
        public var interval: Duration?
        public var lastPoll: Timestamp?
        public init(name: String, interval: Duration?, lastPoll: Timestamp?) {
            self.name = name
            self.interval = interval
            self.lastPoll = lastPoll
        }
    }

    public var symbols: [Symbol]
    public var rules: [RuleStatus]
    /// The most recent alerts, newest first.
    public var alerts: [AlertLine]
    public var providers: [ProviderLine]
    public var pendingDeliveries: Int
    public var oldestPending: Timestamp?
    /// Reasons the daemon is not healthy; empty when it is.
    public var problems: [String]
    /// An error reading the state, shown instead of the tables it prevented.
    public var readError: String?
    public var now: Timestamp
    /// The markets page's list (`[http] markets`), in the order written; empty when none is
    /// configured (the page then shows the watched symbols by market).
    public var marketList: [Symbol] = []

    public init(symbols: [Symbol] = [], rules: [RuleStatus] = [], alerts: [AlertLine] = [], providers: [ProviderLine] = [],
                pendingDeliveries: Int = 0, oldestPending: Timestamp? = nil, problems: [String] = [],
                readError: String? = nil, now: Timestamp) {
        self.symbols = symbols
        self.rules = rules
        self.alerts = alerts
        self.providers = providers
        self.pendingDeliveries = pendingDeliveries
        self.oldestPending = oldestPending
        self.problems = problems
        self.readError = readError
        self.now = now
    }
}
