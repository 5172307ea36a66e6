@testable import PriceWatchApp
import Testing

/// Which mappings the daemon unmaps after its first poll, and that doing so in a running
/// process loses nothing and lowers what it keeps resident.
@Suite struct StartUpPagesTests {
    static let listing = """
        55d0c0000000-55d0c0725000 r--p 00000000 08:01 1234 /usr/bin/pricewatch
        Size:               7316 kB
        Rss:                3080 kB
        Anonymous:             0 kB
        55d0c0726000-55d0c21ea000 r-xp 00725000 08:01 1234 /usr/bin/pricewatch
        Rss:                7336 kB
        Anonymous:             0 kB
        55d0c21ea000-55d0c22fb000 r--p 021e8000 08:01 1234 /usr/bin/pricewatch
        Rss:                1088 kB
        Anonymous:          1088 kB
        55d0c22fc000-55d0c4949000 rw-p 022f9000 08:01 1234 /usr/bin/pricewatch
        Rss:                3668 kB
        Anonymous:           212 kB
        55d0c4949000-55d0c4a00000 rw-p 00000000 00:00 0
        Anonymous:           100 kB
        7f1a00000000-7f1a00021000 rw-p 00000000 00:00 0 [heap]
        Anonymous:           360 kB
        7f1a10000000-7f1a10100000 r--p 00000000 08:01 99 /usr/lib/locale/locale-archive
        Anonymous:             0 kB
        7f1a20000000-7f1a20200000 r-xp 00000000 08:01 77 /usr/lib/x86_64-linux-gnu/libcrypto.so.3 (deleted)
        Anonymous:             0 kB
        7f1a30000000-7f1a30010000 r--s 00000000 08:01 55 /var/lib/pricewatch/state.db-shm
        Anonymous:             0 kB
        7f1a40000000-7f1a40002000 r-xp 00000000 00:00 0 [vdso]
        Anonymous:             0 kB
        7f1a50000000-7f1a50001000 r--p 00000000 08:01 78 /usr/lib/x86_64-linux-gnu/libm.so.6
        Rss:                   4 kB
        """

    @Test func onlyReadOnlyPrivateFileMappingsWithNoCopiedPageAreReleased() {
        let released = StartUpPages.releasable(inSmaps: Substring(Self.listing))
        #expect(released == [
            .init(start: 0x55d0c0000000, end: 0x55d0c0725000),
            .init(start: 0x55d0c0726000, end: 0x55d0c21ea000),
            .init(start: 0x7f1a10000000, end: 0x7f1a10100000),
            .init(start: 0x7f1a20000000, end: 0x7f1a20200000),
        ], "RELRO with copied pages, writable, shared, [vdso] and a mapping whose listing says nothing of copies stay")
    }

    @Test func aListingWithoutAnonymousLinesReleasesNothing() {
        #expect(StartUpPages.releasable(inSmaps: "7f1a50000000-7f1a50001000 r--p 00000000 08:01 78 /lib/libm.so.6\nRss: 4 kB\n").isEmpty)
        #expect(StartUpPages.releasable(inSmaps: "").isEmpty)
        #expect(StartUpPages.releasable(inSmaps: "garbage\nAnonymous: 0 kB\n").isEmpty)
    }

    nonisolated(unsafe) static var written = [1, 2, 3]

    @Test func releasingInThisProcessLowersItsResidentCodeAndLosesNothing() throws {
        Self.written.append(4)
        let before = try #require(Self.releasableResident(), "/proc/self/smaps is readable")
        #expect(StartUpPages.release() > 0, "this process maps read-only files")
        let after = try #require(Self.releasableResident())
        #expect(after < before, "resident read-only file pages went from \(before) kB to \(after) kB")
        #expect(Self.written == [1, 2, 3, 4], "written data stays")
        #expect([3, 1, 2].sorted() == [1, 2, 3], "code runs again after its pages were unmapped")
    }

    /// The resident kilobytes of the mappings the release would unmap.
    static func releasableResident() -> Int? {
        guard let smaps = StartUpPages.readSmaps() else { return nil }
        var total = 0
        var counting = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 6, fields[0].contains("-") {
                counting = (fields[1] == "r--p" || fields[1] == "r-xp") && fields[5].hasPrefix("/")
            } else if counting, fields.first == "Rss:", fields.count >= 2, let kilobytes = Int(fields[1]) {
                total += kilobytes
            }
        }
        return total
    }
}
