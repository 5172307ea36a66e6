/// Journal field names for log metadata.
///
/// The journal keeps only fields named with A-Z, 0-9 and `_`, not starting with `_` (those
/// are the trusted fields journald adds itself), at most 64 characters; it silently drops
/// others. Metadata keys therefore become `PRICEWATCH_` plus the key in upper case with every
/// other character replaced by `_`: `alert_id` is `PRICEWATCH_ALERT_ID`, `error.message` is
/// `PRICEWATCH_ERROR_MESSAGE`. So `journalctl PRICEWATCH_SYMBOL=AAPL` finds a symbol's lines.
public enum JournalFieldName {
    public static let prefix = "PRICEWATCH_"
    static let maximumLength = 64

    public static func forMetadataKey(_ key: String) -> String {
        var name = prefix
        for scalar in key.unicodeScalars {
            switch scalar {
            case "A"..."Z", "0"..."9", "_": name.unicodeScalars.append(scalar)
            case "a"..."z": name.unicodeScalars.append(Unicode.Scalar(scalar.value - 32) ?? "_")
            default: name.unicodeScalars.append("_")
            }
        }
        return String(name.prefix(maximumLength))
    }
}
