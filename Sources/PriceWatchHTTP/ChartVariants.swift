import PriceWatchCore
import PriceWatchPresentation

/// A page's chart as inline SVG in the variants the page's style chooses from: light and dark
/// (`prefers-color-scheme`), each laid out wide (the chart's own size) and narrow
/// (``narrowWidth`` by ``narrowHeight``, for screens under 600 pixels, where the wide layout
/// scaled down left its labels unreadably small). Only one is displayed; the others cost bytes.
enum ChartVariants {
    static let narrowWidth = 420
    static let narrowHeight = 320

    static func svgs(_ chart: ChartDescription, title: String, summary: String) -> String {
        var html = ""
        for narrow in [false, true] {
            for theme in [ChartTheme.light, .dark] {
                var variant = chart
                variant.theme = theme
                if narrow {
                    variant.width = narrowWidth
                    variant.height = narrowHeight
                }
                let css = "chart " + (theme == .light ? "chart-light" : "chart-dark") + (narrow ? " chart-narrow" : "")
                html += ChartSVGText.svg(ChartLayout.drawing(for: variant), title: title, summary: summary, cssClass: css)
            }
        }
        return html
    }
}
