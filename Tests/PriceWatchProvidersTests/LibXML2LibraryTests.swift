import CLibXML2
import Testing

/// libxml2 is opened on the first news feed read; what a machine without it, or with something
/// else under its name, is told.
@Suite struct LibXML2LibraryTests {
    @Test func theInstalledLibxml2HasEveryFunction() {
        #expect(pricewatch_libxml2_probe("libxml2.so.2") == nil)
        #expect(pricewatch_libxml2_load() == nil)
    }

    @Test func aMissingLibraryIsNamed() throws {
        let failure = try #require(pricewatch_libxml2_probe("libpricewatch-missing.so.9").map { String(cString: $0) })
        #expect(failure.hasPrefix("cannot load libpricewatch-missing.so.9: "), "got: \(failure)")
    }

    @Test func aLibraryWithoutLibxml2NamesTheFirstMissingFunction() throws {
        let failure = try #require(pricewatch_libxml2_probe("libz.so.1").map { String(cString: $0) })
        #expect(failure == "libz.so.1 has no function xmlCreatePushParserCtxt")
    }
}
