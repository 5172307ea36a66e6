import Dispatch
import PriceWatchCore

/// The ``ChartRenderer`` on cairo: PNG from an image surface, SVG from cairo's SVG surface,
/// both written to memory. cairo's calls block (font loading, PNG compression), so each
/// chart is painted on a serial dispatch queue of its own, never on the cooperative pool.
public struct CairoChartRenderer: ChartRenderer {
    private static let queue = DispatchQueue(label: "pricewatch.charts.cairo")

    public init() {}

    public func render(_ chart: ChartDescription, as format: ChartImageFormat) async throws -> [UInt8] {
        let drawing = ChartLayout.drawing(for: chart)
        return try await withCheckedThrowingContinuation { continuation in
            Self.queue.async {
                continuation.resume(with: Result { try CairoCanvas.paint(drawing, as: format) })
            }
        }
    }
}
