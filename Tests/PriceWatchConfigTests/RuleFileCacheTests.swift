import PriceWatchApp
import PriceWatchConfig
import PriceWatchCore
import Testing

/// A reload reads again only the rule files that changed (``RuleFileCache``): whatever is
/// edited, a load with the cache gives exactly the configuration and the diagnostics of a load
/// without it.
@Suite struct RuleFileCacheTests {
    private static func rules(_ prefix: String, count: Int, symbol: String = "AAPL", extra: String = "") -> String {
        (0..<count).map { GoldenCase.rule("id = \"\(prefix)-\($0)\"\nsymbol = \"\(symbol)\"\nabove = \($0 + 1)" + extra) }
            .joined(separator: "\n")
    }

    /// Loads with `cache`, then without one, and expects the same; returns the cached result.
    @discardableResult
    private static func loadBoth(_ fixture: ConfigFixture, _ cache: RuleFileCache,
                                 sourceLocation: SourceLocation = #_sourceLocation) -> (configuration: Configuration?, rendered: [String]) {
        let cached = ConfigurationLoader.load(mainFile: fixture.path("pricewatch.toml"), environment: [:],
                                              schemas: AdapterCatalog.schemas, cache: cache)
        let fresh = fixture.load()
        #expect(cached.configuration == fresh.configuration, "the configuration differs from a load without the cache",
                sourceLocation: sourceLocation)
        #expect(fixture.render(cached.diagnostics) == fixture.render(fresh.diagnostics), sourceLocation: sourceLocation)
        return (cached.configuration, fixture.render(cached.diagnostics))
    }

    private static func fixture() throws -> ConfigFixture {
        try ConfigFixture(["pricewatch.toml": GoldenCase.main, "quotes.csv": GoldenCase.csv,
                           "rules.d/a.toml": rules("a", count: 3), "rules.d/b.toml": rules("b", count: 2, symbol: "MSFT"),
                           "rules.d/c.toml": rules("c", count: 2, symbol: "IBM")])
    }

    @Test func anUnchangedConfigurationIsTakenWholeFromTheCache() throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let cache = RuleFileCache()
        let first = Self.loadBoth(fixture, cache)
        #expect(cache.fileCount == 3)
        let second = Self.loadBoth(fixture, cache)
        #expect(second.configuration?.rules.map(\.id) == ["a-0", "a-1", "a-2", "b-0", "b-1", "c-0", "c-1"])
        #expect(second.configuration == first.configuration)
        #expect(cache.fileCount == 3)
    }

    @Test func anEditedFileIsReadAgainAndTheOthersAreKept() throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let cache = RuleFileCache()
        Self.loadBoth(fixture, cache)
        try fixture.write("rules.d/b.toml", Self.rules("b", count: 4, symbol: "TSLA"))
        let edited = Self.loadBoth(fixture, cache)
        #expect(edited.configuration?.rules.filter { $0.id.hasPrefix("b-") }.map(\.symbols) == Array(repeating: ["TSLA"], count: 4))
        // A file of the same length with other contents is read again too.
        try fixture.write("rules.d/c.toml", Self.rules("c", count: 2, symbol: "IBN"))
        #expect(Self.loadBoth(fixture, cache).configuration?.rules.last?.symbols == ["IBN"])
        // A file removed, a file added.
        try fixture.write("rules.d/a.toml", "")
        try fixture.write("rules.d/d.toml", Self.rules("d", count: 1))
        #expect(Self.loadBoth(fixture, cache).configuration?.rules.map(\.id) == ["b-0", "b-1", "b-2", "b-3", "c-0", "c-1", "d-0"])
    }

    @Test func aDuplicateOfAKeptRuleIsReportedAtTheKeptRulesLine() throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let cache = RuleFileCache()
        Self.loadBoth(fixture, cache)
        // c.toml now repeats an id of b.toml, which is kept: reported at b.toml's line.
        try fixture.write("rules.d/c.toml", GoldenCase.rule("id = \"b-1\"\nsymbol = \"IBM\"\nabove = 1"))
        let failed = Self.loadBoth(fixture, cache)
        #expect(failed.configuration == nil)
        #expect(failed.rendered == ["$DIR/rules.d/c.toml:2:1: error: rule 'b-1': duplicate id; first defined at $DIR/rules.d/b.toml:7"])
        // And the other way round: a new earlier file repeats an id of a kept later one.
        try fixture.write("rules.d/c.toml", Self.rules("c", count: 2, symbol: "IBM"))
        try fixture.write("rules.d/0.toml", GoldenCase.rule("id = \"c-0\"\nsymbol = \"IBM\"\nabove = 1"))
        let again = Self.loadBoth(fixture, cache)
        #expect(again.rendered == ["$DIR/rules.d/c.toml:2:1: error: rule 'c-0': duplicate id; first defined at $DIR/rules.d/0.toml:2"])
    }

    @Test func changedDefaultsOfTheMainFileFinishEveryRuleAgain() throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let cache = RuleFileCache()
        #expect(Self.loadBoth(fixture, cache).configuration?.rules.first?.notify == ["console"])
        try fixture.write("pricewatch.toml", GoldenCase.main + "\n\n[sinks.hook]\ntype = \"stdout\"\nformat = \"json\"\n")
        // Two sinks and no default: every rule notifies both.
        #expect(Self.loadBoth(fixture, cache).configuration?.rules.first?.notify == ["console", "hook"])
        try fixture.write("pricewatch.toml", "notify = [\"hook\"]\n" + GoldenCase.main + "\n\n[sinks.hook]\ntype = \"stdout\"\n")
        #expect(Self.loadBoth(fixture, cache).configuration?.rules.first?.notify == ["hook"])
    }

    @Test func aFileWithAWarningIsNotKeptAndAFailedLoadKeepsTheLastGoodFiles() throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let cache = RuleFileCache()
        try fixture.write("rules.d/c.toml", GoldenCase.rule("id = \"c-0\"\nsymbol = \"IBM\"\nfall = 100"))
        let warned = Self.loadBoth(fixture, cache)
        #expect(warned.rendered.count == 1 && warned.rendered[0].contains("never fires"), "\(warned.rendered)")
        #expect(cache.fileCount == 2, "the file with a warning is read again at every load, so its warning is printed again")
        #expect(Self.loadBoth(fixture, cache).rendered == warned.rendered)
        try fixture.write("rules.d/a.toml", GoldenCase.rule("id = \"a-0\"\nsymbol = \"AAPL\"\nabove = 0"))
        #expect(Self.loadBoth(fixture, cache).configuration == nil)
        #expect(cache.fileCount == 2, "a load with errors leaves the cache as it was")
    }
}
