import Foundation
import PriceWatchApp

/// Shell completion (swift-argument-parser's `CompletionKind.custom`, run as
/// `pricewatch ---completion ...` by the generated scripts) of what the configuration the
/// command line names (`--config PATH`, else `$PRICEWATCH_CONFIG`, else the default path)
/// defines, read without rules' checks or secrets, and of IANA time zones.
enum NameCompletion {
    /// Sink names: `notify-test SINK`, `requeue --sink`.
    static func sinks(words: [String]) -> [String] {
        ReadCompletionNames.names(.sinks, configPath: configPath(words))
    }

    /// `[[digest]]` names: `digest NAME`.
    static func digests(words: [String]) -> [String] {
        ReadCompletionNames.names(.digests, configPath: configPath(words))
    }

    /// Rule ids: `silence add --rule`.
    static func rules(words: [String]) -> [String] {
        ReadCompletionNames.names(.rules, configPath: configPath(words))
    }

    /// `--tz`: the IANA zones this system knows, and `market` (each quote's market zone).
    static func timeZones(words: [String]) -> [String] {
        ["market"] + TimeZone.knownTimeZoneIdentifiers.sorted()
    }

    /// The main file the completed command line names.
    static func configPath(_ words: [String]) -> String {
        var path = ProcessInfo.processInfo.environment["PRICEWATCH_CONFIG"] ?? "/etc/pricewatch/pricewatch.toml"
        for (index, word) in words.enumerated() {
            if word == "--config", index + 1 < words.count {
                path = words[index + 1]
            } else if word.hasPrefix("--config=") {
                path = String(word.dropFirst("--config=".count))
            }
        }
        return path
    }
}
