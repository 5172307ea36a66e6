import Foundation
import Testing
import PriceWatchConfig
import PriceWatchCore

/// Hostile configuration is refused with one clear, positioned error, in time linear in its
/// size (issue 10 item 3). No timing is asserted; `pricewatch-bench config-load` prints it.
@Suite struct HostileConfigurationTests {
    func load(rules: String) throws -> [String] {
        let fixture = try ConfigFixture(["pricewatch.toml": GoldenCase.main, "quotes.csv": GoldenCase.csv,
                                         "rules.d/a.toml": rules])
        defer { fixture.remove() }
        let (configuration, diagnostics) = fixture.load()
        #expect(configuration == nil)
        return fixture.render(diagnostics)
    }

    @Test func aTenThousandPartDottedHeader() throws {
        let header = "[" + Array(repeating: "rule", count: 10_000).joined(separator: ".") + "]\nid = \"x\"\n"
        #expect(try load(rules: header) == ["$DIR/rules.d/a.toml:1:162: error: a dotted key has more than 32 parts"])
    }

    @Test func headersNestingOneLevelDeeperEachTime() throws {
        var text = ""
        var path = "rule"
        for _ in 0..<500 {
            text += "[\(path)]\n"
            path += ".rule"
        }
        #expect(try load(rules: text) == ["$DIR/rules.d/a.toml:33:162: error: a dotted key has more than 32 parts"])
    }

    @Test func deeplyNestedInlineTables() throws {
        let text = "[[rule]]\nid = \"x\"\nsymbol = \"AAPL\"\nabove = " + String(repeating: "{a = ", count: 10_000) + "1"
            + String(repeating: "}", count: 10_000) + "\n"
        #expect(try load(rules: text) == ["$DIR/rules.d/a.toml:4:169: error: arrays and inline tables are nested more than 32 deep"])
    }

    @Test func aFileOverOneMebibyteIsNotRead() throws {
        let text = "# " + String(repeating: "x", count: 1 << 20) + "\n"
        #expect(try load(rules: text) == [
            "$DIR/rules.d/a.toml: error: the rule file is 1048579 bytes; a configuration file may have at most 1048576 "
                + "bytes (1 MiB); split the rules across several files in the rules directory",
        ])
    }

    @Test func aVeryLongKey() throws {
        let text = "[[rule]]\n" + String(repeating: "k", count: 300) + " = 1\n"
        #expect(try load(rules: text) == ["$DIR/rules.d/a.toml:2:1: error: a key is 300 bytes long; the limit is 256 bytes"])
    }
}
