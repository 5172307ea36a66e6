import PriceWatchCore

/// A laid-out chart (``ChartDrawing``, from ``ChartLayout``: the layout the alert emails'
/// charts use) written as inline SVG markup for an HTML page: no cairo, no script, scaling to
/// its container's width. The chart's title and a text summary become the SVG's `<title>` and
/// `<desc>`, so a screen reader reads the chart as a sentence.
public enum ChartSVGText {
    /// The `<svg>` element of `drawing`, with `title` and `summary` for assistive technology
    /// and `cssClass` on the element.
    public static func svg(_ drawing: ChartDrawing, title: String, summary: String, cssClass: String) -> String {
        // The plot's frame, for a page's crosshair: left right top bottom, then the start and
        // end times (milliseconds) and the low and high prices at its edges.
        let frame = drawing.frame.map { frame in
            " data-frame=\"" + [frame.left, frame.right, frame.top, frame.bottom].map(number).joined(separator: " ")
                + " \(frame.start.milliseconds) \(frame.end.milliseconds) \(frame.low) \(frame.high)\""
        } ?? ""
        var svg = "<svg class=\"\(HTMLText.escaped(cssClass))\"\(frame) viewBox=\"0 0 \(drawing.width) \(drawing.height)\""
            + " width=\"100%\" preserveAspectRatio=\"xMidYMid meet\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">"
            + "<title>\(HTMLText.escaped(title))</title><desc>\(HTMLText.escaped(summary))</desc>"
        for shape in drawing.shapes {
            svg += element(shape)
        }
        return svg + "</svg>"
    }

    static func element(_ shape: ChartShape) -> String {
        switch shape {
        case .rectangle(let origin, let width, let height, let fill):
            return "<rect x=\"\(number(origin.x))\" y=\"\(number(origin.y))\" width=\"\(number(width))\""
                + " height=\"\(number(height))\" fill=\"\(fill.hex)\"/>"
        case .polyline(let points, let stroke, let lineWidth, let dash):
            let coordinates = points.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
            let dashes = dash.isEmpty ? "" : " stroke-dasharray=\"\(dash.map(number).joined(separator: " "))\""
            return "<polyline points=\"\(coordinates)\" fill=\"none\" stroke=\"\(stroke.hex)\""
                + " stroke-width=\"\(number(lineWidth))\" stroke-linejoin=\"round\"\(dashes)/>"
        case .circle(let center, let radius, let fill, let outline, let note):
            let circle = "<circle cx=\"\(number(center.x))\" cy=\"\(number(center.y))\" r=\"\(number(radius))\""
                + " fill=\"\(fill.hex)\" stroke=\"\(outline.hex)\""
            // A note is the circle's title: shown on hover, and on tap by the page's script.
            guard let note else { return circle + "/>" }
            return circle + " tabindex=\"0\" class=\"marker\"><title>\(HTMLText.escaped(note))</title></circle>"
        case .text(let text, let at, let size, let color, let anchor, let bold):
            let textAnchor = switch anchor {
            case .start: "start"
            case .middle: "middle"
            case .end: "end"
            }
            return "<text x=\"\(number(at.x))\" y=\"\(number(at.y))\" font-family=\"DejaVu Sans, Verdana, sans-serif\""
                + " font-size=\"\(number(size))\" fill=\"\(color.hex)\" text-anchor=\"\(textAnchor)\""
                + (bold ? " font-weight=\"bold\"" : "") + ">\(HTMLText.escaped(text))</text>"
        }
    }

    /// A coordinate to one decimal place, without a trailing `.0`: the markup stays small.
    static func number(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e9 else { return "0" }
        let tenths = Int((value * 10).rounded())
        if tenths % 10 == 0 { return String(tenths / 10) }
        return (tenths < 0 ? "-" : "") + "\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }
}
