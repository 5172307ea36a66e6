import CCairo
import Foundation
import PriceWatchCore
import PriceWatchTestKit

/// The charts the tests draw, from recorded history, and a PNG decoder built on cairo itself.
enum ChartFixtures {
    /// AAPL's one-minute closes of 2024-10-02 (Tests/Fixtures/history).
    static func aaplSeries() throws -> [ChartPoint] {
        let text = try String(contentsOfFile: RepositoryFiles.path("Tests/Fixtures/history/aapl-1m-2024-10-02.csv"), encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).dropFirst().compactMap { line in
            let fields = line.split(separator: ",")
            guard fields.count >= 3, let time = Timestamp(parsing: String(fields[1])),
                  let price = ExactDecimal(String(fields[2])) else { return nil }
            return ChartPoint(time: time, price: price)
        }
    }

    /// The session with the previous close, an `above 226.50` threshold and its first crossing.
    static func aaplChart(theme: ChartTheme, threshold: String = "226.50") throws -> ChartDescription {
        let series = try aaplSeries()
        let level = ExactDecimal(threshold) ?? .zero
        let crossing = series.first { $0.price > level }
        return ChartDescription(
            title: "AAPL · 2 Oct 2024", series: series,
            levels: [ChartLevel(role: .previousClose, price: ExactDecimal("226.21") ?? .zero, label: "prev close"),
                     ChartLevel(role: .threshold, price: level, label: "above")],
            markers: crossing.map { [ChartMarker(time: $0.time, price: $0.price, label: "alert")] } ?? [],
            timeZone: "America/New_York", theme: theme)
    }

    /// A decoded ARGB32 image.
    struct Pixels {
        var width: Int
        var height: Int
        /// Row-major, 0xAARRGGBB.
        var values: [UInt32]

        func at(_ x: Int, _ y: Int) -> (red: Int, green: Int, blue: Int) {
            let value = values[y * width + x]
            return (Int((value >> 16) & 0xFF), Int((value >> 8) & 0xFF), Int(value & 0xFF))
        }
    }

    /// Decodes PNG bytes with cairo; `nil` when cairo cannot read them.
    static func decodePNG(_ bytes: [UInt8]) -> Pixels? {
        let reader = ByteReader(bytes: bytes)
        let context = Unmanaged.passUnretained(reader).toOpaque()
        guard let surface = cairo_image_surface_create_from_png_stream(readBytes, context) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface) else { return nil }
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        var values: [UInt32] = []
        values.reserveCapacity(width * height)
        for row in 0..<height {
            let rowStart = UnsafeRawPointer(data + row * stride)
            for column in 0..<width { values.append(rowStart.load(fromByteOffset: column * 4, as: UInt32.self)) }
        }
        return withExtendedLifetime(reader) { Pixels(width: width, height: height, values: values) }
    }

    /// How many pixels differ by more than `tolerance` in some channel.
    static func differingPixels(_ left: Pixels, _ right: Pixels, tolerance: Int = 24) -> Int {
        guard left.width == right.width, left.height == right.height else { return Int.max }
        var count = 0
        for index in 0..<left.values.count where left.values[index] != right.values[index] {
            let a = left.values[index], b = right.values[index]
            for shift in [0, 8, 16, 24] {
                let difference = abs(Int((a >> UInt32(shift)) & 0xFF) - Int((b >> UInt32(shift)) & 0xFF))
                if difference > tolerance { count += 1; break }
            }
        }
        return count
    }
}

final class ByteReader {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }
}

private func readBytes(_ closure: UnsafeMutableRawPointer?, _ data: UnsafeMutablePointer<UInt8>?, _ length: UInt32) -> cairo_status_t {
    guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
    let reader = Unmanaged<ByteReader>.fromOpaque(closure).takeUnretainedValue()
    let count = Int(length)
    guard reader.offset + count <= reader.bytes.count else { return CAIRO_STATUS_READ_ERROR }
    for index in 0..<count { data[index] = reader.bytes[reader.offset + index] }
    reader.offset += count
    return CAIRO_STATUS_SUCCESS
}
