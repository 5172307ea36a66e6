/// A chart laid out in pixels: the shapes to paint, in order, on a canvas of the given size.
/// Produced by ``ChartLayout``; a ``ChartRenderer`` only paints it, so what a chart shows is
/// decided (and tested) here in the core.
public struct ChartDrawing: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public var shapes: [ChartShape]
    /// Where the prices are plotted and what the plot's edges stand for: what a page's
    /// crosshair reads a pointer's time and price from. Nil for a drawing without prices.
    public var frame: PlotFrame?

    public init(width: Int, height: Int, shapes: [ChartShape], frame: PlotFrame? = nil) {
        self.width = width
        self.height = height
        self.shapes = shapes
        self.frame = frame
    }
}

/// The price plot's rectangle in pixels and the times and prices at its edges: a point at
/// `left` is `start`, at `right` is `end`, at `bottom` is `low`, at `top` is `high`, linearly.
public struct PlotFrame: Sendable, Hashable {
    public var left: Double
    public var right: Double
    public var top: Double
    public var bottom: Double
    public var start: Timestamp
    public var end: Timestamp
    public var low: Double
    public var high: Double

    public init(left: Double, right: Double, top: Double, bottom: Double, start: Timestamp, end: Timestamp, low: Double, high: Double) {
        self.left = left
        self.right = right
        self.top = top
        self.bottom = bottom
        self.start = start
        self.end = end
        self.low = low
        self.high = high
    }
}

/// A point on the canvas, in pixels from the top left corner.
public struct CanvasPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// One thing to paint.
public enum ChartShape: Sendable, Hashable {
    /// Where a text's `at` point lies on its baseline.
    public enum TextAnchor: Sendable, Hashable {
        case start, middle, end
    }

    /// A filled rectangle.
    case rectangle(origin: CanvasPoint, width: Double, height: Double, fill: ChartColor)
    /// A stroked open line; `dash` is empty for a solid line, else on/off lengths in pixels.
    case polyline(points: [CanvasPoint], stroke: ChartColor, lineWidth: Double, dash: [Double])
    /// A filled circle with an outline; `note` is text a page may show on hover (an alert's message).
    case circle(center: CanvasPoint, radius: Double, fill: ChartColor, outline: ChartColor, note: String? = nil)
    /// A line of text in DejaVu Sans.
    case text(String, at: CanvasPoint, size: Double, color: ChartColor, anchor: TextAnchor, bold: Bool)
}
