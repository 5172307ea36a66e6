/// Draws charts as images: PNG for emails and chat attachments, SVG for the web.
///
/// The contract:
///
/// - ``render(_:as:)`` paints ``ChartLayout/drawing(for:)`` of the description, nothing else:
///   what a chart shows is decided in the core, the renderer only paints it.
/// - The same description gives the same image on the same system (fonts installed alike).
/// - Rendering never blocks the caller's executor: blocking library calls run elsewhere.
/// - Errors are ``ChartRenderError``s naming what failed.
public protocol ChartRenderer: Sendable {
    func render(_ chart: ChartDescription, as format: ChartImageFormat) async throws -> [UInt8]
}

/// The file formats charts come in.
public enum ChartImageFormat: String, Sendable, Hashable, CaseIterable {
    case png
    case svg

    /// The MIME type of the bytes.
    public var contentType: String {
        switch self {
        case .png: "image/png"
        case .svg: "image/svg+xml"
        }
    }
}

/// Why a chart could not be drawn.
public struct ChartRenderError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
