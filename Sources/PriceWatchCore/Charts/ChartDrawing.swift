/// A chart laid out in pixels: the shapes to paint, in order, on a canvas of the given size.
/// Produced by ``ChartLayout``; a ``ChartRenderer`` only paints it, so what a chart shows is
/// decided (and tested) here in the core.
public struct ChartDrawing: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public var shapes: [ChartShape]

    public init(width: Int, height: Int, shapes: [ChartShape]) {
        self.width = width
        self.height = height
        self.shapes = shapes
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
    /// A filled circle with an outline.
    case circle(center: CanvasPoint, radius: Double, fill: ChartColor, outline: ChartColor)
    /// A line of text in DejaVu Sans.
    case text(String, at: CanvasPoint, size: Double, color: ChartColor, anchor: TextAnchor, bold: Bool)
}
