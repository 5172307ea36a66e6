@testable import PriceWatchSinks
import Testing

/// Cutting text to a service's limit: never past the limit as services count it (UTF-16),
/// never inside a character, and a group's cut says how many alerts it left out.
@Suite struct ServiceTextTests {
    @Test func aCutKeepsWholeCharactersAndEndsWithTheMarker() {
        #expect(ServiceText.cut("short", to: 10) == "short")
        #expect(ServiceText.cut("abcdefghij", to: 10) == "abcdefghij")
        #expect(ServiceText.cut("abcdefghijk", to: 10) == "abcdefghi…")
        // 😀 is two UTF-16 units: it is kept whole or left out, never split.
        let cut = ServiceText.cut("ab😀😀😀", to: 5)
        #expect(cut == "ab😀…")
        #expect(cut.utf16.count <= 5)
        #expect(ServiceText.cut("one two   three", to: 9) == "one two…")
        #expect(ServiceText.cut("👨‍👩‍👧‍👦👨‍👩‍👧‍👦", to: 12) == "👨‍👩‍👧‍👦…")
    }

    @Test func linesThatDoNotFitAreCounted() {
        let lines = (1...5).map { "alert \($0) crossed its threshold" }   // 31 characters each
        #expect(ServiceText.lines(lines, fitting: 1000) == lines.joined(separator: "\n"))
        let two = ServiceText.lines(lines, fitting: 90)
        #expect(two == lines[0] + "\n" + lines[1] + "\n… and 3 more")
        #expect(two.utf16.count <= 90)
        for limit in 20...200 {
            let text = ServiceText.lines(lines, fitting: limit)
            #expect(text.utf16.count <= limit, "limit \(limit): \(text)")
            #expect(text == lines.joined(separator: "\n") || text.hasSuffix(" more"), "limit \(limit): \(text)")
        }
    }

    @Test func formAndPathEncodingLeaveOnlyUnreservedCharacters() {
        #expect(ServiceText.percentEncoded("!AbC:example.org") == "%21AbC%3Aexample.org")
        #expect(String(decoding: ServiceText.form([("message", "a b&c=d é")]), as: UTF8.self) == "message=a%20b%26c%3Dd%20%C3%A9")
        #expect(ServiceText.join("https://h.example/x//", "/message") == "https://h.example/x/message")
    }
}
