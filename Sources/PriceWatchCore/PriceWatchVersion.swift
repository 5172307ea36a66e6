/// The release version, shown by `pricewatch --version` and sent in the HTTP User-Agent.
public enum PriceWatchVersion {
    public static let current = "0.1.0"
}
