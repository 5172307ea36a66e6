import FoundationEssentials
import PriceWatchApp

/// Shell completion of `notify-test SINK`: the sink names of the configuration the command
/// line names (`--config PATH`, else `$PRICEWATCH_CONFIG`, else the default path), read
/// without rules or secrets.
enum SinkNameCompletion {
    static func names(words: [String]) -> [String] {
        var path = ProcessInfo.processInfo.environment["PRICEWATCH_CONFIG"] ?? "/etc/pricewatch/pricewatch.toml"
        for (index, word) in words.enumerated() {
            if word == "--config", index + 1 < words.count {
                path = words[index + 1]
            } else if word.hasPrefix("--config=") {
                path = String(word.dropFirst("--config=".count))
            }
        }
        return ReadRuleStatus.sinkNames(configPath: path)
    }
}
