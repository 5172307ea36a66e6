import Foundation
import PriceWatchApp
@testable import PriceWatchConfig
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// The fast path for plain rule files (``PlainRuleFileReader``) makes exactly what the general
/// way (parse, ``RuleReader``, ``RuleResolver``) makes of the same file, or declines: every
/// file it takes is one the general way reads without a single diagnostic, into the same
/// rules with their ids at the same places. Checked on every TOML file of the repository (the
/// official TOML suite's valid and invalid documents among them), odd files and seeded
/// mutations, against main files that resolve providers and sinks differently.
@Suite struct PlainRuleFileReaderTests {
    /// Main files: one replay provider and one sink (every default implied); Yahoo (whose
    /// symbols' spelling is checked) with two sinks and default ones; two providers and no
    /// default provider (every rule must name one).
    static let mains = [
        GoldenCase.main,
        """
        provider = "yahoo"
        notify = ["console"]

        [providers.yahoo]
        type = "yahoo"

        [sinks.console]
        type = "stdout"

        [sinks.log]
        type = "stdout"
        format = "json"
        """,
        """
        [providers.demo]
        type = "replay"
        file = "quotes.csv"

        [providers.other]
        type = "replay"
        file = "quotes.csv"

        [sinks.console]
        type = "stdout"
        """,
    ]

    /// A plain file using every key the fast path reads, in several spellings.
    static let variety = """
        # Comments, blank lines and CRLF-free lines; a comment with non-ASCII text: € — ✓

        [[rule]]
        id = "aapl-above"    # a trailing comment
        symbol = "AAPL"
        above = 227
        rearm = 0.25
        message = "{{symbol}} is at {{price}} {{currency}} ({{condition}})"

        [[rule]]
        id = "pair.watch_1"
        symbols = ["MSFT", "IBM",]
        provider = "demo"
        below = 400.5
        cooldown = "30m"
        notify = ["console"]
        once = true
        enabled = false
        urgent = true

        [[rule]]
        \tid\t=\t"fall-window"
        symbol = "NVDA"
        fall = 3
        from = "1h"
        market = "XNAS"
        session = "regular"

        [[rule]]
        id = "move-open"
        symbol = "BTC-USD"
        move = 1.5
        from = "open"
        rearm = 0.5

        [[rule]]
        id = "rise-close"
        symbols = [ "SPY" ]
        rise = 0.00000001
        from = "previous_close"

        [[rule]]
        id = "cross"
        symbol = "QQQ"
        crosses = 480
        """

    /// Ten rules a symbol, as the start-up benchmark writes them.
    static func benchmarkShaped(symbols: Int) -> String {
        (0..<symbols).map { index in
            let symbol = "SYM\(index)"
            let conditions = ["above = 150", "below = 100", "rise = 0.3", "fall = 0.3", "move = 0.5\nfrom = \"1h\"",
                              "crosses = 125", "rise = 1\nfrom = \"15m\"\nrearm = 0.5", "fall = 2\nfrom = \"1d\"",
                              "above = 200\ncooldown = \"30m\"", "move = 0.2\nrearm = 0.1"]
            return conditions.enumerated().map { "[[rule]]\nid = \"r\(index)-\($0.offset)\"\nsymbol = \"\(symbol)\"\n\($0.element)\n" }
                .joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// The resolver the loader would make for `main` (no portfolios).
    static func resolver(main: String) -> RuleResolver {
        let file = ConfigFile(bytes: Array(main.utf8), displayPath: "pricewatch.toml", what: "configuration file")
        let settings = MainFileReader(file: file, baseDirectory: "/nonexistent", environment: [:], schemas: AdapterCatalog.schemas).read()
        return RuleResolver(settings: settings, mainDisplayPath: "pricewatch.toml", portfolios: [], portfoliosComplete: true)
    }

    static let resolvers = mains.map(resolver(main:))

    /// Reads `bytes` both ways with `resolver`; when the fast path takes the file, expects the
    /// general way to report nothing and to make the same rules and id positions. Returns
    /// whether the fast path took it.
    @discardableResult
    static func expectSameBothWays(_ bytes: [UInt8], _ resolver: RuleResolver, _ label: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let plain = PlainRuleFileReader(resolver: resolver).read(bytes) else { return false }
        let file = ConfigFile(bytes: bytes, displayPath: "rules.toml", what: "rule file")
        var rules: [Rule] = []
        var marks: [DuplicateIDCheck.Mark] = []
        RuleReader.read(file) { draft in
            if let id = draft.id { marks.append(DuplicateIDCheck.Mark(id: id, position: draft.idPosition)) }
            if let rule = resolver.resolve(draft) { rules.append(rule) }
        }
        #expect(file.diagnostics.isEmpty, "\(label): the fast path took a file the general way reports: \(file.diagnostics)",
                sourceLocation: sourceLocation)
        let plainRules = RuleBuffer.join([.read(plain.rules)])
        #expect(plainRules == rules, "\(label): the fast path made other rules", sourceLocation: sourceLocation)
        #expect(plain.marks.map(\.id) == marks.map(\.id) && plain.marks.map(\.position) == marks.map(\.position),
                "\(label): the ids or their positions differ", sourceLocation: sourceLocation)
        return true
    }

    @Test func theBenchmarksFilesAndTheVarietyFileAreTakenAndMatch() {
        let benchmark = Array(Self.benchmarkShaped(symbols: 30).utf8), variety = Array(Self.variety.utf8)
        let benchmarkTaken = Self.resolvers.enumerated().map { Self.expectSameBothWays(benchmark, $0.element, "benchmark, main \($0.offset)") }
        // With two providers and no default, a rule without `provider` is an error: declined.
        #expect(benchmarkTaken == [true, true, false], "expected the benchmark's file taken with the first two main files only")
        let varietyTaken = Self.resolvers.enumerated().map { Self.expectSameBothWays(variety, $0.element, "variety, main \($0.offset)") }
        // Yahoo has no provider "demo", and the third main file no default provider: declined.
        #expect(varietyTaken == [true, false, false], "expected the variety file taken with the first main file only")
    }

    @Test func everyTOMLFileOfTheRepositoryReadsTheSameBothWays() async throws {
        let listing = try await CommandRunner.run(program: "/usr/bin/git", ["ls-files", "*.toml", "*.toml.sample"])
        let paths = listing.standardOutput.split(separator: "\n").map(String.init)
        #expect(paths.count > 500, "expected the repository's TOML files (the TOML suite among them), found \(paths.count)")
        var taken = 0
        for path in paths {
            guard let data = FileManager.default.contents(atPath: RepositoryFiles.path(path)) else { continue }
            for (index, resolver) in Self.resolvers.enumerated() where Self.expectSameBothWays([UInt8](data), resolver, "\(path), main \(index)") {
                taken += 1
            }
        }
        // The example tree's level rules and the end-to-end tests' rule files are plain.
        #expect(taken > 0, "no file of the repository was taken by the fast path")
    }

    @Test func oddFilesAreDeclinedOrReadTheSame() {
        let base = "[[rule]]\nid = \"a\"\nsymbol = \"AAPL\"\nabove = 200\n"
        let r: (String, String) -> String = { base.replacingOccurrences(of: $0, with: $1) }
        var odd: [String] = []
        odd += ["", "# only a comment\n", base + "id = \"b\"\n", base + "below = 100\n", base + "unknown = 1\n"]
        odd += [r("\"a\"", "\"A\""), r("\"a\"", "\"\"")]
        odd += [r("AAPL", "AA PL"), r("AAPL", "")]
        odd += [r("AAPL", "aapl"), r("AAPL", "BTCUSD")]
        odd += [r("200", "0"), r("200", "-5")]
        odd += [r("200", "1_000"), r("200", "2e2")]
        odd += [r("200", "+200"), r("200", "0200")]
        odd += [r("200", "inf"), r("200", "nan")]
        odd += [r("200", "99999999999999999999"), r("200", "1.123456789")]
        odd += [r("200", "200."), r("200", ".5")]
        odd += [r("200", "\"200\""), r("200", "\"sma(20)\"")]
        odd += [r("200", "2024-01-01"), r("200", "200 200")]
        odd += [r("above", "fall").replacingOccurrences(of: "200", with: "100")]
        odd += [r("above", "fall").replacingOccurrences(of: "200", with: "99.9")]
        odd += [base + "from = \"1h\"\n", r("above", "rise") + "from = \"1x\"\n"]
        odd += [r("above", "rise") + "from = \"0s\"\n"]
        odd += [base + "rearm = 100\n", base + "rearm = 99.99\n", base + "rearm = -1\n"]
        odd += [r("above", "rise").replacingOccurrences(of: "200", with: "2") + "rearm = 2\n"]
        odd += [r("above", "crosses") + "rearm = 1\n"]
        odd += [base + "cooldown = \"\"\n", base + "cooldown = \"5 minutes\"\n", base + "once = yes\n", base + "once = truex\n"]
        odd += [base + "notify = []\n", base + "notify = [\"console\", \"console\"]\n", base + "notify = [\"nowhere\"]\n"]
        odd += [base + "notify = [\n\"console\"]\n", base + "notify = [\"console\" \"log\"]\n"]
        odd += [base + "provider = \"\"\n", base + "provider = \"nowhere\"\n", base + "message = \"\"\n"]
        odd += [base + "message = \"{{nope}}\"\n", base + "message = \"{{symbol\"\n", base + "market = \"X\"\n"]
        odd += [base + "market = \"XN YS\"\n", base + "session = \"sometimes\"\n", base + "expires = 2030-01-01\n"]
        odd += [base + "portfolio = \"p\"\n", base + "timeframe = \"1d\"\n", base + "symbols = [\"MSFT\"]\n"]
        odd += [r("symbol = \"AAPL\"", "symbols = [\"AAPL\", \"AAPL\"]")]
        odd += [r("symbol = \"AAPL\"", ""), r("id = \"a\"\n", "")]
        odd += [r("above = 200\n", ""), base + "a.b = 1\n", base + "\"id\" = \"c\"\n"]
        odd += [base + "[rule]\n", base + "[[ rule ]]\nid = \"b\"\nsymbol = \"X\"\nabove = 1\n", base + "[[rules]]\n"]
        odd += ["id = \"top\"\n" + base, base + "[other]\nx = 1\n", base + "[[rule]]\n"]
        odd += [r("\n", "\r\n"), r("\n", "\r")]
        odd += ["\u{FEFF}" + base, r("AAPL", "AA\tPL")]
        odd += [r("AAPL", "AA\\u0041PL"), r("\"AAPL\"", "'AAPL'")]
        odd += [r("\"AAPL\"", "\"\"\"AAPL\"\"\""), r("AAPL", "ÄAPL")]
        odd += [base + "# a comment with a control character \u{7}\n", base + "# a comment with DEL \u{7F}\n"]
        odd += [base + "symbol2 = { a = 1 }\n", base + "above = 300\n", base + "id = \"a\"\n", base + base]
        for resolver in Self.resolvers {
            for (index, text) in odd.enumerated() {
                Self.expectSameBothWays(Array(text.utf8), resolver, "odd file #\(index): \(text.debugDescription)")
            }
            // Bytes no string can hold: invalid UTF-8 in a comment, a NUL.
            Self.expectSameBothWays(Array(base.utf8) + [0x23, 0xC3, 0x28, 0x0A], resolver, "invalid UTF-8 in a comment")
            Self.expectSameBothWays(Array(base.utf8) + [0x23, 0x00, 0x0A], resolver, "NUL in a comment")
            // A file of CRLF lines is plain.
            let crlf = Self.expectSameBothWays(Array(base.replacingOccurrences(of: "\n", with: "\r\n").utf8), Self.resolvers[0], "CRLF")
            #expect(crlf, "expected a file of CRLF lines to be taken")
        }
    }

    @Test func seededMutationsOfThePlainFilesReadTheSameBothWays() {
        var random = SeededRandom(seed: 0x5EED_2611_2700)
        let alphabet = Array("\"[]=#,.-_ \t\n\r0123456789aAzZ{}\\'".utf8) + [0x00, 0x7F, 0xC3, 0xA9, 0xFF]
        let sources = [Array(Self.variety.utf8), Array(Self.benchmarkShaped(symbols: 2).utf8)]
        var taken = 0
        for round in 0..<6_000 {
            let bytes = random.mutated(sources[round % sources.count], alphabet: alphabet)
            let resolver = Self.resolvers[round % Self.resolvers.count]
            if Self.expectSameBothWays(bytes, resolver, "mutation \(round)") { taken += 1 }
        }
        // Not vacuous: many mutations (in comments, messages, ids) leave a plain file that the
        // first two main files resolve (the third one none of these).
        #expect(taken > 200, "only \(taken) of 6,000 mutated files were taken by the fast path")
    }

    @Test func aWholeTreeLoadsTheSameEitherWay() throws {
        let fixture = try ConfigFixture(["pricewatch.toml": GoldenCase.main, "quotes.csv": GoldenCase.csv,
                                         "rules.d/a.toml": Self.variety, "rules.d/b.toml": Self.benchmarkShaped(symbols: 5),
                                         // A duplicate id across files: reported at the second, naming the first.
                                         "rules.d/c.toml": "[[rule]]\nid = \"cross\"\nsymbol = \"X\"\nabove = 1\n",
                                         "rules.d/d.toml": "[[rule]]\nid = \"bad\"\nsymbol = \"X\"\nabove = -1\n"])
        defer { fixture.remove() }
        let path = fixture.path("pricewatch.toml")
        let plain = ConfigurationLoader.load(mainFile: path, environment: [:], schemas: AdapterCatalog.schemas, cache: nil,
                                             readingPlainRuleFiles: true)
        let general = ConfigurationLoader.load(mainFile: path, environment: [:], schemas: AdapterCatalog.schemas, cache: nil,
                                               readingPlainRuleFiles: false)
        #expect(plain.configuration == general.configuration)
        #expect(fixture.render(plain.diagnostics) == fixture.render(general.diagnostics))
        #expect(fixture.render(plain.diagnostics).contains { $0.contains("duplicate id; first defined at $DIR/rules.d/a.toml:") },
                "expected the duplicate id across files, found \(fixture.render(plain.diagnostics))")

        for tree in ["etc/pricewatch/pricewatch.toml", "Tests/E2E/systemd/pricewatch.toml"] {
            let main = RepositoryFiles.path(tree)
            let fast = ConfigurationLoader.load(mainFile: main, environment: [:], schemas: AdapterCatalog.schemas, cache: nil,
                                                readingPlainRuleFiles: true)
            let slow = ConfigurationLoader.load(mainFile: main, environment: [:], schemas: AdapterCatalog.schemas, cache: nil,
                                                readingPlainRuleFiles: false)
            #expect(fast.configuration == slow.configuration, "\(tree): the configurations differ")
            #expect(fast.diagnostics == slow.diagnostics, "\(tree): the diagnostics differ")
        }
    }
}
