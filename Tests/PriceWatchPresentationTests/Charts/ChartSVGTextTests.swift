import PriceWatchCore
@testable import PriceWatchPresentation
import Testing

/// A laid-out chart written as SVG markup.
struct ChartSVGTextTests {
    @Test func shapesBecomeElementsWithEscapedTextAndShortNumbers() {
        let drawing = ChartDrawing(width: 100, height: 50, shapes: [
            .rectangle(origin: CanvasPoint(x: 0, y: 0), width: 100, height: 50, fill: ChartColor(255, 255, 255)),
            .polyline(points: [CanvasPoint(x: 1.25, y: 2), CanvasPoint(x: -3.04, y: 4.96)], stroke: ChartColor(0, 114, 178),
                      lineWidth: 1.5, dash: [4, 2]),
            .circle(center: CanvasPoint(x: 10, y: 10), radius: 3, fill: ChartColor(204, 121, 167), outline: ChartColor(0, 0, 0)),
            .text("a<b & \"c\"", at: CanvasPoint(x: 5, y: 6), size: 11, color: ChartColor(34, 34, 34), anchor: .end, bold: true),
        ])
        let svg = ChartSVGText.svg(drawing, title: "T<", summary: "S&", cssClass: "chart")
        #expect(svg.hasPrefix("<svg class=\"chart\" viewBox=\"0 0 100 50\""))
        #expect(svg.contains("<title>T&lt;</title><desc>S&amp;</desc>"))
        #expect(svg.contains("<rect x=\"0\" y=\"0\" width=\"100\" height=\"50\" fill=\"#ffffff\"/>"))
        #expect(svg.contains("points=\"1.3,2 -3,5\""), "\(svg)")
        #expect(svg.contains("stroke-dasharray=\"4 2\""))
        #expect(svg.contains("<circle cx=\"10\" cy=\"10\" r=\"3\""))
        #expect(svg.contains("text-anchor=\"end\" font-weight=\"bold\">a&lt;b &amp; &quot;c&quot;</text>"))
        #expect(svg.hasSuffix("</svg>"))
        #expect(ChartSVGText.number(.nan) == "0" && ChartSVGText.number(.infinity) == "0")
        #expect(ChartSVGText.number(-0.04) == "0" && ChartSVGText.number(-0.06) == "-0.1")
    }
}
