/// What a price chart shows, independent of how it is drawn: the price line, the labelled
/// levels (rule thresholds, the previous close), session breaks, alert markers, the time zone
/// of the time axis and the theme. ``ChartLayout`` turns it into a ``ChartDrawing``; a
/// ``ChartRenderer`` (cairo, in the charts adapter) turns that into PNG or SVG bytes.
public struct ChartDescription: Sendable, Hashable {
    /// One line above the plot, e.g. `AAPL · 2 Oct 2024`.
    public var title: String
    /// The prices, oldest first. An empty series draws the axes and the title only.
    public var series: [ChartPoint]
    /// Horizontal labelled lines: thresholds and the previous close.
    public var levels: [ChartLevel]
    /// Instants where one trading session ends and the next begins (drawn as dashed lines).
    public var sessionBreaks: [Timestamp]
    /// Alerts on the line.
    public var markers: [ChartMarker]
    /// Series drawn over the prices (a technical rule's averages, bands, channels), each a
    /// labelled line in a colour of its own.
    public var overlays: [ChartOverlay] = []
    /// Panels under the prices, one per oscillator (RSI with its 30 and 70, MACD with its
    /// signal and histogram), sharing the time axis.
    public var panels: [ChartPanel] = []
    /// The IANA time zone of the time axis (the market's), e.g. `America/New_York`.
    public var timeZone: String
    public var theme: ChartTheme
    /// The image size in pixels; 600 × 320 reads well in an email.
    public var width: Int
    public var height: Int

    public init(title: String, series: [ChartPoint], levels: [ChartLevel] = [], sessionBreaks: [Timestamp] = [],
                markers: [ChartMarker] = [], timeZone: String = "UTC", theme: ChartTheme = .light,
                width: Int = 600, height: Int = 320) {
        self.title = title
        self.series = series
        self.levels = levels
        self.sessionBreaks = sessionBreaks
        self.markers = markers
        self.timeZone = timeZone
        self.theme = theme
        self.width = width
        self.height = height
    }
}

/// A series drawn over the price line: `sma(50)`, `bb_upper(20,2)`.
public struct ChartOverlay: Sendable, Hashable {
    /// Written at the line's right end.
    public var label: String
    /// The series' values, oldest first (bars where it is undefined are left out).
    public var points: [ChartPoint]

    public init(label: String, points: [ChartPoint]) {
        self.label = label
        self.points = points
    }
}

/// An oscillator in a panel under the price chart: its lines, its reference levels, and a
/// histogram of bars from zero (MACD's).
public struct ChartPanel: Sendable, Hashable {
    /// Written at the panel's top left: `rsi(14)`.
    public var title: String
    public var lines: [ChartOverlay]
    public var levels: [Double]
    public var histogram: [ChartPoint]

    public init(title: String, lines: [ChartOverlay] = [], levels: [Double] = [], histogram: [ChartPoint] = []) {
        self.title = title
        self.lines = lines
        self.levels = levels
        self.histogram = histogram
    }
}

/// One price at one instant.
public struct ChartPoint: Sendable, Hashable {
    public var time: Timestamp
    public var price: ExactDecimal

    public init(time: Timestamp, price: ExactDecimal) {
        self.time = time
        self.price = price
    }
}

/// A horizontal line across the plot with a label: a rule's threshold or the previous close.
public struct ChartLevel: Sendable, Hashable {
    /// What the line means; it picks the colour and the dash.
    public enum Role: String, Sendable, Hashable {
        case threshold
        case previousClose = "previous_close"
    }

    public var role: Role
    public var price: ExactDecimal
    /// Shown at the right end of the line, before the price: `above 226`, `prev close`.
    public var label: String

    public init(role: Role, price: ExactDecimal, label: String) {
        self.role = role
        self.price = price
        self.label = label
    }
}

/// An alert drawn on the price line: a dot at its quote's time and price, with a short label.
public struct ChartMarker: Sendable, Hashable {
    public var time: Timestamp
    public var price: ExactDecimal
    public var label: String
    /// A longer text (the alert's message) a page shows on hover or tap; images have no use for it.
    public var note: String?

    public init(time: Timestamp, price: ExactDecimal, label: String, note: String? = nil) {
        self.time = time
        self.price = price
        self.label = label
        self.note = note
    }
}
