import Foundation
#if canImport(Glibc)
import Glibc
#endif
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

    /// The whole test binary's resident code cannot be compared before and after: the tests
    /// running beside this one fault its pages back in at any moment. A file this test alone
    /// maps read-only can: every one of its pages is resident before, none after, and its bytes
    /// read back the same.
    @Test func releasingInThisProcessDropsAReadOnlyFilesPagesAndLosesNothing() throws {
        Self.written.append(4)
        let pageCount = 256
        let size = pageCount * Int(sysconf(Int32(_SC_PAGESIZE)))
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("startup-pages-\(UInt64.random(in: 0...UInt64.max)).bin").path
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 4096) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0, "\(path) opens")
        defer { close(descriptor) }
        let mapped = try #require(mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0))
        try #require(mapped != MAP_FAILED, "\(path) maps")
        defer { munmap(mapped, size) }
        let start = UInt(bitPattern: mapped)
        let view = UnsafeRawBufferPointer(start: mapped, count: size)

        let pageStarts = Array(stride(from: 0, to: size, by: 4096))
        #expect(pageStarts.map { view[$0] } == pageStarts.map { bytes[$0] }, "the mapping reads the file")
        let before = try #require(Self.resident(ofMappingAt: start), "/proc/self/smaps lists the file's mapping")
        #expect(before * 1024 >= size, "every page of the file is resident after reading it: \(before) kB of \(size / 1024)")

        #expect(StartUpPages.release() > 0, "this process maps read-only files")
        let after = try #require(Self.resident(ofMappingAt: start), "the mapping stays")
        #expect(after < before / 4, "the file's resident pages went from \(before) kB to \(after) kB")

        #expect(Array(view) == bytes, "the file's bytes read back the same after the release")
        #expect(Self.written == [1, 2, 3, 4], "written data stays")
        #expect([3, 1, 2].sorted() == [1, 2, 3], "code runs again after its pages were unmapped")
    }

    /// The resident kilobytes of the mapping that starts at `start`, from `/proc/self/smaps`.
    static func resident(ofMappingAt start: UInt) -> Int? {
        guard let smaps = StartUpPages.readSmaps() else { return nil }
        var inside = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 5, let dash = fields[0].firstIndex(of: "-"),
               let first = UInt(fields[0][..<dash], radix: 16) {
                inside = first == start
            } else if inside, fields.first == "Rss:", fields.count >= 2 {
                return Int(fields[1])
            }
        }
        return nil
    }
}
