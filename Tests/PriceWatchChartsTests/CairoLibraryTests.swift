import CCairo
import Testing

/// cairo is opened on first use; what a machine without it, or with something else under its
/// name, is told.
@Suite struct CairoLibraryTests {
    @Test func theInstalledCairoHasEveryFunction() {
        #expect(pricewatch_cairo_probe("libcairo.so.2") == nil)
        #expect(pricewatch_cairo_load() == nil)
    }

    @Test func aMissingLibraryIsNamed() throws {
        let failure = try #require(pricewatch_cairo_probe("libpricewatch-missing.so.9").map { String(cString: $0) })
        #expect(failure.hasPrefix("cannot load libpricewatch-missing.so.9: "), "got: \(failure)")
    }

    @Test func aLibraryWithoutCairoNamesTheFirstMissingFunction() throws {
        let failure = try #require(pricewatch_cairo_probe("libz.so.1").map { String(cString: $0) })
        #expect(failure == "libz.so.1 has no function cairo_image_surface_create")
    }
}
