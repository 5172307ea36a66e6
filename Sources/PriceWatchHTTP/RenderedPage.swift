import CompressNIO
import NIOCore

/// A page rendered once and served many times: its bytes as rendered and, compressed once at
/// rendering, as gzip for clients that accept it (``AcceptEncoding``). At 1,000 symbols the
/// dashboard is about 530 KB of HTML and about a tenth of that in gzip.
struct RenderedPage: Sendable {
    /// The page as rendered (`Content-Encoding` identity).
    let identity: ByteBuffer
    /// The same bytes in gzip; nil when compressing failed (then every client gets the identity).
    let gzip: ByteBuffer?

    init(_ text: String) {
        identity = ByteBuffer(string: text)
        var input = identity
        gzip = try? input.compress(with: .gzip)
    }

    /// The bytes for a client that accepts `accepted`, and their `Content-Encoding` (nil: identity).
    func body(for accepted: AcceptEncoding) -> (bytes: ByteBuffer, encoding: String?) {
        if accepted.acceptsGzip, let gzip { return (gzip, "gzip") }
        return (identity, nil)
    }
}
