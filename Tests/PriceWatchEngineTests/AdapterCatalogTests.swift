import PriceWatchApp
import PriceWatchCore
import Testing

/// The one catalog of adapter kinds: the loader's schemas and the wiring's factories come
/// from the same list, each type once, in the order messages list them.
@Suite struct AdapterCatalogTests {
    @Test func eachTypeIsRegisteredOnceAndTheLoaderSeesTheSameTypesAsTheWiring() {
        let providers = AdapterCatalog.providers.map(\.type)
        let sinks = AdapterCatalog.sinks.map(\.type)
        #expect(providers == ["replay", "yahoo", "finnhub", "twelvedata", "coinbase", "binance", "kraken", "coingecko", "nasdaq"])
        #expect(sinks == ["stdout", "webhook", "email", "telegram", "pushover", "gotify", "matrix", "desktop", "mqtt"])
        #expect(AdapterCatalog.schemas.providers.map(\.type) == providers)
        #expect(AdapterCatalog.schemas.sinks.map(\.type) == sinks)
    }

    @Test func schemasDeclareTheirSecretsAndRequiredKeys() throws {
        let webhook = try #require(AdapterCatalog.sink(type: "webhook")).schema
        let email = try #require(AdapterCatalog.sink(type: "email")).schema
        #expect(webhook.secretKeys == ["secret"])
        #expect(email.secretKeys == ["password"])
        #expect(try #require(AdapterCatalog.sink(type: "mqtt")).schema.secretKeys == ["password"])
        #expect(email.fields.filter(\.required).map(\.key) == ["url", "from", "to"])
        let secrets = ["telegram": ["token"], "pushover": ["token"], "gotify": ["token"], "matrix": ["access_token"]]
        for (type, keys) in secrets {
            #expect(try #require(AdapterCatalog.sink(type: type)).schema.secretKeys == keys, "\(type)")
        }
        #expect(AdapterCatalog.providers.filter(\.schema.requiresAPIKey).map(\.type) == ["finnhub", "twelvedata"])
    }

    @Test func aTypeTheCatalogLacksIsOneDiagnosticNotACrash() throws {
        let interval = try #require(RuleDuration(seconds: 60))
        let configuration = Configuration(
            mainFile: "/etc/pricewatch/pricewatch.toml", statePath: "/tmp/unused.db", interval: interval, retention: interval,
            providers: [ProviderConfiguration(name: "odd", type: "nonesuch", interval: interval)], sinks: [], rules: [])
        let (providers, diagnostics) = AdapterFactory.providers(for: configuration, transport: NetworkTransports().http)
        #expect(providers.isEmpty)
        #expect(diagnostics.map(\.description)
            == ["/etc/pricewatch/pricewatch.toml: error: providers.odd: provider type 'nonesuch' is not supported by this build"])
    }
}
