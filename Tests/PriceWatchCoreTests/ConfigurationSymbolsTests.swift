import PriceWatchCore
import Testing

/// The symbols a configuration watches, per provider and in all: every symbol once, whatever
/// the order of the rules (a rule repeating its neighbour's symbols adds nothing new).
@Suite struct ConfigurationSymbolsTests {
    private static func rule(_ id: String, _ symbols: [String], provider: String) -> Rule {
        Rule(id: id, symbols: symbols, provider: provider, condition: .above(.hundred))
    }

    private static let configuration: Configuration = {
        let minute = RuleDuration(seconds: 60)!
        let providers = ["a", "b", "idle"].map { ProviderConfiguration(name: $0, type: "replay", interval: minute) }
        return Configuration(mainFile: "pricewatch.toml", statePath: "/tmp/state.db", interval: minute, retention: minute,
                             providers: providers, sinks: [], rules: [
                                 rule("1", ["AAPL"], provider: "a"), rule("2", ["AAPL"], provider: "a"),
                                 rule("3", ["MSFT", "AAPL"], provider: "a"), rule("4", ["AAPL"], provider: "b"),
                                 rule("5", ["AAPL"], provider: "a"), rule("6", ["MSFT", "AAPL"], provider: "a"),
                                 rule("7", ["IBM"], provider: "b"), rule("8", ["IBM"], provider: "b"),
                             ])
    }()

    @Test func perProviderEverySymbolOnceSorted() {
        #expect(Self.configuration.symbols(for: "a") == ["AAPL", "MSFT"])
        #expect(Self.configuration.symbols(for: "b") == ["AAPL", "IBM"])
        #expect(Self.configuration.symbols(for: "idle") == [])
    }

    @Test func allSymbolsAcrossProviders() {
        #expect(Self.configuration.allSymbols == ["AAPL", "MSFT", "IBM"])
    }

    @Test func watchesSymbolsAgreesWithTheSymbolList() {
        for provider in ["a", "b", "idle", "unknown"] {
            #expect(Self.configuration.watchesSymbols(through: provider) == !Self.configuration.symbols(for: provider).isEmpty,
                    "provider \(provider)")
        }
        #expect(!Self.configuration.watchesSymbols(through: "idle"))
    }
}
