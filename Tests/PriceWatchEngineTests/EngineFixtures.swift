import Foundation
import Logging
import PriceWatchCore
import PriceWatchServices
import PriceWatchStore
import PriceWatchTestKit

/// Shared building blocks for the engine's service tests.
enum EngineFixtures {
    static let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func decimal(_ text: String) -> ExactDecimal {
        guard let value = ExactDecimal(text) else { preconditionFailure("bad decimal literal \(text) in a test") }
        return value
    }

    static func quote(_ symbol: String, _ price: String, at seconds: Int64, previousClose: String? = nil) -> Quote {
        Quote(symbol: symbol, price: decimal(price), time: Timestamp(seconds: seconds),
              previousClose: previousClose.map(decimal), currency: "USD")
    }

    static func configuration(rules: [Rule], statePath: String = ":memory:", interval: Int64 = 60,
                              providers: [String] = ["feed"], sinks: [String] = ["recorder"]) -> Configuration {
        guard let duration = RuleDuration(seconds: interval), let retention = RuleDuration(seconds: 7 * 86_400) else {
            preconditionFailure("bad durations in a test")
        }
        return Configuration(
            mainFile: "test.toml", statePath: statePath, interval: duration, retention: retention,
            providers: providers.map { ProviderConfiguration(name: $0, type: "scripted", interval: duration) },
            sinks: sinks.map { SinkConfiguration(name: $0, type: "recording") },
            rules: rules)
    }

    static func rule(_ id: String, _ condition: Condition, symbols: [String] = ["AAPL"], provider: String = "feed",
                     baseline: Baseline = .previousClose, notify: [String] = ["recorder"]) -> Rule {
        Rule(id: id, symbols: symbols, provider: provider, condition: condition, baseline: baseline, notify: notify)
    }

    /// A fresh temporary directory for a file-backed store.
    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pricewatch-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func ok(_ quotes: Quote...) -> [String: Result<Quote, ProviderError>] {
        Dictionary(uniqueKeysWithValues: quotes.map { ($0.symbol, .success($0)) })
    }
}
