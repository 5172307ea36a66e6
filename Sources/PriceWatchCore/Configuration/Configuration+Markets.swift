extension Configuration {
    /// The markets the rules of `provider` name for their symbols (`market = "XNYS"`): what
    /// market-aware polling uses instead of the calendars' guess. When rules disagree about a
    /// symbol, the first rule in load order wins.
    public func marketOverrides(for provider: String) -> [String: MarketIdentifier] {
        var overrides: [String: MarketIdentifier] = [:]
        for rule in rules where rule.provider == provider {
            guard let market = rule.market else { continue }
            for symbol in rule.symbols where overrides[symbol] == nil { overrides[symbol] = market }
        }
        return overrides
    }
}
