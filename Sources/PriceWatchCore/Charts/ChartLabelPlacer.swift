/// Places a chart's labels so that none leaves the image and none overlaps another: each keeps
/// the row it asks for when that is free, else the nearest free row a line height above or
/// below it, and is moved sideways back inside the image when it would cross an edge.
///
/// Text widths are estimated from the character count at the size drawn (DejaVu Sans averages
/// about 0.6 of the size per character, bold about 0.65), generously, so an estimate that is
/// a little wide costs a little space, never a clipped label. Pure; labels placed earlier win.
struct ChartLabelPlacer {
    /// The rectangle a label covers, in pixels.
    struct Box: Hashable {
        var left: Double
        var right: Double
        var top: Double
        var bottom: Double

        func overlaps(_ other: Box) -> Bool {
            left < other.right && other.left < right && top < other.bottom && other.top < bottom
        }
    }

    let width: Double
    let height: Double
    /// What is taken: the reserved boxes (the title), then every label placed.
    private(set) var boxes: [Box]

    /// Space kept between a label and the image's edge.
    static let margin = 2.0

    init(width: Double, height: Double, reserved: [Box] = []) {
        self.width = width
        self.height = height
        self.boxes = reserved
    }

    /// The estimated width of `text` drawn at `size`.
    static func estimatedWidth(_ text: String, size: Double, bold: Bool) -> Double {
        Double(text.count) * size * (bold ? 0.65 : 0.62)
    }

    /// The box of `text` drawn with its baseline at `at` and `anchor`.
    static func box(_ text: String, at: CanvasPoint, size: Double, anchor: ChartShape.TextAnchor, bold: Bool) -> Box {
        let textWidth = estimatedWidth(text, size: size, bold: bold)
        let left = switch anchor {
        case .start: at.x
        case .middle: at.x - textWidth / 2
        case .end: at.x - textWidth
        }
        // Ascent about 0.8 of the size above the baseline, descent about 0.25 below.
        return Box(left: left, right: left + textWidth, top: at.y - size * 0.8, bottom: at.y + size * 0.25)
    }

    /// Where to draw `text` that wants its baseline at `wanted`: inside the image, clear of
    /// every label placed before; the label is then taken.
    mutating func place(_ text: String, at wanted: CanvasPoint, size: Double, anchor: ChartShape.TextAnchor,
                        bold: Bool) -> CanvasPoint {
        let first = Self.box(text, at: wanted, size: size, anchor: anchor, bold: bold)
        // Back inside: left from the right edge, then right from the left edge (which wins for
        // a label wider than the image).
        var shift = min(0, width - Self.margin - first.right)
        shift = max(shift, Self.margin - first.left)
        let point = CanvasPoint(x: wanted.x + shift, y: wanted.y)
        let step = size + 2
        let lowest = height - Self.margin - size * 0.25
        let highest = Self.margin + size * 0.8
        var candidates = [point.y]
        for distance in 1...40 {
            candidates.append(point.y - Double(distance) * step)
            candidates.append(point.y + Double(distance) * step)
        }
        for row in candidates.map({ min(max($0, highest), lowest) }) {
            let candidate = CanvasPoint(x: point.x, y: row)
            let box = Self.box(text, at: candidate, size: size, anchor: anchor, bold: bold)
            if !boxes.contains(where: { $0.overlaps(box) }) {
                boxes.append(box)
                return candidate
            }
        }
        // A chart too small for every label: the wanted row, inside the image.
        let fallback = CanvasPoint(x: point.x, y: min(max(point.y, highest), lowest))
        boxes.append(Self.box(text, at: fallback, size: size, anchor: anchor, bold: bold))
        return fallback
    }
}
