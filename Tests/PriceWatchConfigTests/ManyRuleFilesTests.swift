import Foundation
import PriceWatchConfig
import PriceWatchCore
import Testing

/// Rule files are read on every core: the rules, their order and every diagnostic are those
/// of reading the files one after another, in lexical order, whatever finishes first.
@Suite struct ManyRuleFilesTests {
    @Test func manyFilesGiveTheirRulesAndDiagnosticsInFileOrder() throws {
        var files: [String: String] = [:]
        for index in 0..<40 {
            let name = String(format: "rules.d/%02d.toml", index)
            // Every file: a good rule, a rule with an unknown key; every fifth file repeats the
            // id of the file before, reported at its second use.
            let repeated = index % 5 == 4 ? String(format: "r%02d", index - 1) : String(format: "r%02d", index)
            files[name] = GoldenCase.rule("id = \"\(repeated)\"\nsymbol = \"S\(index)\"\nabove = \(index + 1)")
                + GoldenCase.rule("id = \"bad\(index)\"\nsymbol = \"S\(index)\"\nabove = 1\ncolour = \"red\"")
        }
        let (rendered, configuration, fixture) = try GoldenCase(name: "many files", files: files, expected: []).run()
        defer { fixture.remove() }
        #expect(configuration == nil)
        var expected: [String] = []
        for index in 0..<40 {
            let file = String(format: "$DIR/rules.d/%02d.toml", index)
            if index % 5 == 4 {
                expected.append(String(format: "\(file):2:1: error: rule 'r%02d': duplicate id; first defined at $DIR/rules.d/%02d.toml:2",
                                       index - 1, index - 1))
            }
            expected.append("\(file):9:1: error: unknown key 'colour' in rule 'bad\(index)' (expected one of: id, symbol, symbols, provider, "
                            + "above, below, rise, fall, move, crosses, from, rearm, cooldown, once, expires, enabled, notify, message, "
                            + "market, session, urgent, portfolio, measure, position, timeframe, of, trigger, event, before, match)")
        }
        #expect(rendered == expected)
        // Loading again gives the same, to the letter.
        #expect(fixture.rendered() == rendered)
    }
}
