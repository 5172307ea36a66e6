/// The colour scheme of a chart. Both themes draw with the Okabe-Ito palette, which stays
/// distinguishable with the common colour-vision deficiencies; roles never rely on hue alone
/// (levels are dashed, markers are dots with a label).
public enum ChartTheme: String, Sendable, Hashable, CaseIterable {
    case light
    case dark

    /// The colours of each role in this theme.
    public var palette: ChartPalette {
        switch self {
        case .light:
            ChartPalette(background: ChartColor(255, 255, 255), text: ChartColor(34, 34, 34),
                         grid: ChartColor(230, 230, 230), axis: ChartColor(110, 110, 110),
                         line: ChartColor(0, 114, 178), threshold: ChartColor(213, 94, 0),
                         previousClose: ChartColor(0, 158, 115), marker: ChartColor(204, 121, 167),
                         sessionBreak: ChartColor(150, 150, 150))
        case .dark:
            ChartPalette(background: ChartColor(24, 26, 31), text: ChartColor(230, 230, 230),
                         grid: ChartColor(55, 58, 66), axis: ChartColor(150, 150, 150),
                         line: ChartColor(86, 180, 233), threshold: ChartColor(230, 159, 0),
                         previousClose: ChartColor(0, 158, 115), marker: ChartColor(204, 121, 167),
                         sessionBreak: ChartColor(120, 120, 120))
        }
    }
}

/// The colour of each part of a chart.
public struct ChartPalette: Sendable, Hashable {
    /// The colours of overlaid series, in order (Okabe-Ito orange, sky blue, bluish green,
    /// reddish purple): distinct from the price line and from each other for every common
    /// colour-vision deficiency, on both themes.
    public static let overlayColors = [ChartColor(230, 159, 0), ChartColor(86, 180, 233), ChartColor(0, 158, 115),
                                       ChartColor(204, 121, 167)]

    public var background: ChartColor
    public var text: ChartColor
    public var grid: ChartColor
    public var axis: ChartColor
    public var line: ChartColor
    public var threshold: ChartColor
    public var previousClose: ChartColor
    public var marker: ChartColor
    public var sessionBreak: ChartColor
}

/// An opaque sRGB colour, 0 to 255 per channel.
public struct ChartColor: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#0072b2`.
    public var hex: String {
        "#" + [red, green, blue].map { value in
            let digits = String(value, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
}
