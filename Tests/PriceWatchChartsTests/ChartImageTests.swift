import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PriceWatchCharts
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// Charts drawn by cairo: PNGs against reviewed reference images (decoded by cairo, compared
/// within a small tolerance for font rasterisation), SVG structure by parsing it.
@Suite struct ChartImageTests {
    /// At most this share of pixels may differ (anti-aliasing, hinting) from the reference.
    static let allowedDifference = 0.005

    @Test(arguments: ChartTheme.allCases)
    func pngMatchesTheReferenceImage(theme: ChartTheme) async throws {
        let png = try await CairoChartRenderer().render(try ChartFixtures.aaplChart(theme: theme), as: .png)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "not a PNG signature")
        let referencePath = RepositoryFiles.path("Tests/Fixtures/charts/aapl-2024-10-02-\(theme.rawValue).png")
        guard let reference = FileManager.default.contents(atPath: referencePath) else {
            _ = FileManager.default.createFile(atPath: referencePath, contents: Data(png))
            Issue.record("no reference image at \(referencePath): wrote the rendered one; review it and commit it")
            return
        }
        let actual = try #require(ChartFixtures.decodePNG(png), "cairo cannot decode the rendered PNG")
        let expected = try #require(ChartFixtures.decodePNG(Array(reference)), "cairo cannot decode \(referencePath)")
        #expect(actual.width == 600 && actual.height == 320, "expected 600x320, got \(actual.width)x\(actual.height)")
        let differing = ChartFixtures.differingPixels(actual, expected)
        let limit = Int(Double(actual.width * actual.height) * Self.allowedDifference)
        if differing > limit {
            let failed = NSTemporaryDirectory() + "aapl-2024-10-02-\(theme.rawValue)-actual.png"
            _ = FileManager.default.createFile(atPath: failed, contents: Data(png))
            Issue.record("\(differing) pixels differ from \(referencePath) (limit \(limit)); rendered image at \(failed)")
        }
    }

    /// The comparison is sharp enough to see a threshold moved by a dollar.
    @Test func theComparisonSeesAMovedThreshold() async throws {
        let renderer = CairoChartRenderer()
        let original = try await renderer.render(try ChartFixtures.aaplChart(theme: .light), as: .png)
        let moved = try await renderer.render(try ChartFixtures.aaplChart(theme: .light, threshold: "227.50"), as: .png)
        let left = try #require(ChartFixtures.decodePNG(original))
        let right = try #require(ChartFixtures.decodePNG(moved))
        let limit = Int(Double(left.width * left.height) * Self.allowedDifference)
        #expect(ChartFixtures.differingPixels(left, right) > limit)
    }

    /// The price line is drawn in the theme's line colour where the price is.
    @Test(arguments: ChartTheme.allCases)
    func theLineHasTheThemeColour(theme: ChartTheme) async throws {
        let png = try await CairoChartRenderer().render(try ChartFixtures.aaplChart(theme: theme), as: .png)
        let pixels = try #require(ChartFixtures.decodePNG(png))
        let line = theme.palette.line
        let matching = pixels.values.indices.filter { index in
            let pixel = pixels.at(index % pixels.width, index / pixels.width)
            return abs(pixel.red - Int(line.red)) < 12 && abs(pixel.green - Int(line.green)) < 12 && abs(pixel.blue - Int(line.blue)) < 12
        }.count
        // 389 points across ~520 px at 2 px wide: well over a thousand pixels of line colour.
        #expect(matching > 1_000, "only \(matching) pixels of the line colour \(line.hex)")
        let background = pixels.at(2, 2)
        #expect(background == (Int(theme.palette.background.red), Int(theme.palette.background.green), Int(theme.palette.background.blue)))
    }

    @Test func tenChartsStayUnderHalfAMegabyte() async throws {
        let renderer = CairoChartRenderer()
        var total = 0
        for index in 0..<10 {
            let chart = try ChartFixtures.aaplChart(theme: index.isMultiple(of: 2) ? .light : .dark)
            total += try await renderer.render(chart, as: .png).count
        }
        print("ten 600x320 charts: \(total) bytes of PNG")
        #expect(total < 500_000, "ten charts take \(total) bytes")
    }

    @Test func svgHasAxesLinesAndLabels() async throws {
        let chart = try ChartFixtures.aaplChart(theme: .light)
        let svg = try await CairoChartRenderer().render(chart, as: .svg)
        let document = SVGSummary(bytes: svg)
        #expect(document.parsed, "the SVG does not parse: \(document.error ?? "")")
        #expect(document.rootWidth == "600" || document.rootWidth == "600pt", "root width \(document.rootWidth ?? "none")")
        let palette = chart.theme.palette
        // The price line: one stroked path in the line colour through every point.
        let linePaths = document.strokes.filter { $0.color == palette.line && !$0.dashed }
        #expect(linePaths.count == 1, "expected one price line, found \(linePaths.count)")
        // cairo leaves out segments of zero length (a minute without a change of pixel).
        #expect((linePaths.first?.segments ?? 0) >= (chart.series.count - 1) * 95 / 100, "the price line misses points")
        // The axes: one solid path in the axis colour with two segments (left and bottom).
        #expect(document.strokes.contains { $0.color == palette.axis && !$0.dashed && $0.segments == 2 }, "no axes")
        // Both levels, dashed, in their colours.
        #expect(document.strokes.contains { $0.color == palette.threshold && $0.dashed }, "no dashed threshold line")
        #expect(document.strokes.contains { $0.color == palette.previousClose && $0.dashed }, "no dashed previous close")
        // Labels: cairo draws text as glyphs, one per character (spaces included).
        let drawing = ChartLayout.drawing(for: chart)
        let characters = drawing.shapes.reduce(0) { count, shape in
            if case .text(let text, _, _, _, _, _) = shape { return count + text.count }
            return count
        }
        #expect(document.glyphUses == characters, "expected \(characters) glyphs for the labels, found \(document.glyphUses)")
    }
}

/// What the SVG tests look at: stroked paths (colour, dash, segment count) and glyph uses.
final class SVGSummary: NSObject, XMLParserDelegate {
    struct Stroke {
        var color: ChartColor?
        var dashed: Bool
        var segments: Int
    }

    var parsed = false
    var error: String?
    var rootWidth: String?
    var strokes: [Stroke] = []
    var glyphUses = 0
    private var inDefinitions = 0

    init(bytes: [UInt8]) {
        super.init()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = self
        parsed = parser.parse()
        error = parser.parserError.map { "\($0)" }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch name {
        case "svg": rootWidth = attributes["width"]
        case "defs", "symbol": inDefinitions += 1
        case "use" where inDefinitions == 0:
            if (attributes["xlink:href"] ?? attributes["href"] ?? "").hasPrefix("#glyph") { glyphUses += 1 }
        case "path" where inDefinitions == 0:
            let style = attributes["style"] ?? ""
            var properties: [String: String] = [:]
            for declaration in style.split(separator: ";") {
                let pair = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2 { properties[pair[0]] = pair[1] }
            }
            for (key, value) in attributes where key.hasPrefix("stroke") || key == "fill" { properties[key] = value }
            guard let stroke = properties["stroke"], stroke != "none" else { return }
            let path = attributes["d"] ?? ""
            strokes.append(Stroke(color: Self.color(stroke), dashed: properties["stroke-dasharray"].map { $0 != "none" } ?? false,
                                  segments: path.filter { $0 == "L" }.count))
        default: break
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "defs" || name == "symbol" { inDefinitions -= 1 }
    }

    /// `rgb(0%, 44.7%, 69.8%)`, `rgb(0, 114, 178)` or `#0072b2`.
    static func color(_ text: String) -> ChartColor? {
        if text.hasPrefix("#"), text.count == 7, let value = UInt32(text.dropFirst(), radix: 16) {
            return ChartColor(UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
        }
        guard text.hasPrefix("rgb("), text.hasSuffix(")") else { return nil }
        let parts = text.dropFirst(4).dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 3 else { return nil }
        let channels = parts.compactMap { part -> UInt8? in
            if part.hasSuffix("%"), let percent = Double(part.dropLast()) { return UInt8((percent * 2.55).rounded()) }
            return Double(part).map { UInt8($0.rounded()) }
        }
        return channels.count == 3 ? ChartColor(channels[0], channels[1], channels[2]) : nil
    }
}
