@testable import PriceWatchHTTP
import Testing

/// `Accept-Encoding` as RFC 9110 reads it: codings with weights, the wildcard, `q=0` refusing.
struct AcceptEncodingTests {
    @Test(arguments: [
        (["gzip"], true),
        (["gzip, deflate, br, zstd"], true),
        (["br;q=1.0, gzip;q=0.8, *;q=0.1"], true),
        (["GZIP"], true),
        (["x-gzip"], true),
        (["deflate", "gzip;q=0.5"], true),
        (["*"], true),
        (["br, *;q=0.2"], true),
        ([], false),
        ([""], false),
        (["identity"], false),
        (["br, deflate"], false),
        (["gzip;q=0"], false),
        (["gzip; q=0.000"], false),
        (["*;q=1, gzip;q=0"], false),
        (["gzip;q=2"], false),
        (["gzip;q=abc"], false),
        ([",,;;=,"], false),
    ])
    func gzipIsAcceptedWhenTheHeaderSaysSo(values: [String], accepted: Bool) {
        #expect(AcceptEncoding(values).acceptsGzip == accepted, "\(values)")
    }
}
