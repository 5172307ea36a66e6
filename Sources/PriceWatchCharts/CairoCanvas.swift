import CCairo
import PriceWatchCore

/// Paints a ``ChartDrawing`` with cairo into PNG or SVG bytes. Synchronous and blocking: call
/// it off the cooperative pool (``CairoChartRenderer`` does). The first chart loads cairo; a
/// machine without it gets a ``ChartRenderError`` saying so, not a crash.
public enum CairoCanvas {
    public static func paint(_ drawing: ChartDrawing, as format: ChartImageFormat) throws -> [UInt8] {
        if let failure = pricewatch_cairo_load() {
            throw ChartRenderError("charts need cairo (apt libcairo2): \(String(cString: failure))")
        }
        let output = ByteCollector()
        let context = Unmanaged.passUnretained(output).toOpaque()
        let width = Int32(drawing.width)
        let height = Int32(drawing.height)
        let created: OpaquePointer? = switch format {
        case .png: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height)
        case .svg: cairo_svg_surface_create_for_stream(collectBytes, context, Double(width), Double(height))
        }
        guard let surface = created else { throw ChartRenderError("cairo could not create a \(format.rawValue) surface") }
        defer { cairo_surface_destroy(surface) }
        try check(cairo_surface_status(surface), "creating the \(format.rawValue) surface")
        guard let cairo = cairo_create(surface) else { throw ChartRenderError("cairo could not create a context") }
        paint(drawing.shapes, on: cairo)
        let status = cairo_status(cairo)
        cairo_destroy(cairo)
        try check(status, "drawing the chart")
        switch format {
        case .png:
            try check(cairo_surface_write_to_png_stream(surface, collectBytes, context), "writing the PNG")
        case .svg:
            cairo_surface_finish(surface)
            try check(cairo_surface_status(surface), "writing the SVG")
        }
        return withExtendedLifetime(output) { output.bytes }
    }

    static func paint(_ shapes: [ChartShape], on cairo: OpaquePointer) {
        cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_BUTT)
        for shape in shapes {
            switch shape {
            case .rectangle(let origin, let width, let height, let fill):
                setColor(fill, on: cairo)
                cairo_rectangle(cairo, origin.x, origin.y, width, height)
                cairo_fill(cairo)
            case .polyline(let points, let stroke, let lineWidth, let dash):
                guard let first = points.first else { continue }
                setColor(stroke, on: cairo)
                cairo_set_line_width(cairo, lineWidth)
                dash.withUnsafeBufferPointer { cairo_set_dash(cairo, $0.baseAddress, Int32($0.count), 0) }
                cairo_move_to(cairo, first.x, first.y)
                for point in points.dropFirst() { cairo_line_to(cairo, point.x, point.y) }
                cairo_stroke(cairo)
            case .circle(let center, let radius, let fill, let outline, _):
                cairo_new_sub_path(cairo)
                cairo_arc(cairo, center.x, center.y, radius, 0, 2 * Double.pi)
                setColor(fill, on: cairo)
                cairo_fill_preserve(cairo)
                setColor(outline, on: cairo)
                cairo_set_line_width(cairo, 1.5)
                cairo_set_dash(cairo, nil, 0, 0)
                cairo_stroke(cairo)
            case .text(let text, let at, let size, let color, let anchor, let bold):
                cairo_select_font_face(cairo, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                                       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
                cairo_set_font_size(cairo, size)
                var extents = cairo_text_extents_t()
                cairo_text_extents(cairo, text, &extents)
                let x = switch anchor {
                case .start: at.x
                case .middle: at.x - extents.x_advance / 2
                case .end: at.x - extents.x_advance
                }
                setColor(color, on: cairo)
                cairo_move_to(cairo, x, at.y)
                cairo_show_text(cairo, text)
                cairo_new_path(cairo)
            }
        }
    }

    static func setColor(_ color: ChartColor, on cairo: OpaquePointer) {
        cairo_set_source_rgb(cairo, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255)
    }

    static func check(_ status: cairo_status_t, _ step: String) throws {
        guard status != CAIRO_STATUS_SUCCESS else { return }
        let reason = cairo_status_to_string(status).map { String(cString: $0) } ?? "status \(status.rawValue)"
        throw ChartRenderError("cairo failed \(step): \(reason)")
    }
}

/// The bytes cairo writes, gathered in memory.
final class ByteCollector {
    var bytes: [UInt8] = []
}

/// cairo's write callback: appends to the ``ByteCollector`` in `closure`.
private func collectBytes(_ closure: UnsafeMutableRawPointer?, _ data: UnsafePointer<UInt8>?, _ length: UInt32) -> cairo_status_t {
    guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
    let collector = Unmanaged<ByteCollector>.fromOpaque(closure).takeUnretainedValue()
    collector.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
    return CAIRO_STATUS_SUCCESS
}
