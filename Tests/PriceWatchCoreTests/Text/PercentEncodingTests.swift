import PriceWatchCore
import Testing

/// RFC 3986 percent-encoding and its inverse, which the Apprise-style URLs and the test kit's
/// recorded requests both read with.
@Suite struct PercentEncodingTests {
    @Test(arguments: ["^GSPC", "EURUSD=X", "a b/c?d&e", "Zürich €", "123:ABC-def_~."])
    func decodingTheEncodedGivesTheTextBack(text: String) {
        #expect(PercentEncoding.decoded(PercentEncoding.encoded(text)[...]) == text)
    }

    @Test func onlyReservedAndNonASCIIBytesAreEncoded() {
        #expect(PercentEncoding.encoded("AAPL") == "AAPL")
        #expect(PercentEncoding.encoded("BRK-B.x_y~") == "BRK-B.x_y~")
        #expect(PercentEncoding.encoded("^GSPC") == "%5EGSPC")
        #expect(PercentEncoding.encoded("EURUSD=X") == "EURUSD%3DX")
        #expect(PercentEncoding.encoded("a b") == "a%20b")
        #expect(PercentEncoding.encoded("ü") == "%C3%BC")
        #expect(PercentEncoding.encoded("") == "")
    }

    @Test func whatIsNotAnEscapeStaysAsItIs() {
        #expect(PercentEncoding.decoded("100%"[...]) == "100%")
        #expect(PercentEncoding.decoded("%zz%4"[...]) == "%zz%4")
        #expect(PercentEncoding.decoded("a+b%2Bc"[...]) == "a+b+c", "+ is not a space outside form bodies")
        #expect(PercentEncoding.decoded("%FF"[...]) == "\u{FFFD}", "bytes that are not UTF-8 become U+FFFD")
    }
}
