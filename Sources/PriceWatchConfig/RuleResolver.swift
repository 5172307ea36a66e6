import PriceWatchCore

/// Finishes one rule against the main file: applies its defaults to the rule's `provider` and
/// `notify`, checks the names, and checks a portfolio rule's portfolio and position; reports
/// every problem to the rule's own file.
///
/// Runs on the rule file's reading thread (``RuleSet/Finish``), so it holds only values.
struct RuleResolver: Sendable {
    // Everything `resolve(_:)` reads is in `RuleFileCache.Context`: an input added here must be
    // added there too, or a reload would reuse rules finished against its old value.
    let settings: MainSettings
    /// The main file as diagnostics name it, for the "set a default" hint.
    let mainDisplayPath: String
    let portfolios: [Portfolio]
    /// Whether every portfolio file was read without errors; when not, a portfolio that is
    /// missing is not reported again (its file's error says why).
    let portfoliosComplete: Bool

    /// The complete rule, or nil when something it needs is wrong (already reported).
    func resolve(_ draft: consuming RuleDraft) -> Rule? {
        let reader = draft.reader
        var provider: String?
        if let written = draft.provider {
            if settings.providersReadable, !settings.providerNames.contains(written) {
                reader.error(Wording.unknownName("provider", written, among: settings.providerNames), key: "provider")
            } else {
                provider = written
            }
        } else if reader.has("provider") {
            // Written wrongly; already reported at the rule.
        } else if let fallback = settings.defaultProvider {
            provider = fallback
        } else if settings.defaultProviderWritten {
            // The main file's `provider` is wrong; already reported there.
        } else if settings.providerNames.count == 1 {
            provider = settings.providerNames.first
        } else if settings.providerNames.count > 1 {
            reader.tableError("no provider: name one with 'provider', or set a default 'provider' in "
                              + "\(mainDisplayPath) (providers: \(settings.providerNames.joined(separator: ", ")))")
        }

        let notify = resolveNotify(draft.notify, reader: reader)

        if let target = draft.rule?.portfolio {
            if let portfolio = portfolios.first(where: { $0.name == target.portfolio }) {
                let held = PortfolioWatchlist.heldSymbols(of: portfolio)
                if let position = target.position, !held.contains(position) {
                    reader.error("portfolio '\(target.portfolio)' holds no '\(position)'; it holds " + Wording.quotedList(held),
                                 key: "position")
                    return nil
                }
            } else {
                reportMissingPortfolio(target.portfolio, reader: reader)
                return nil
            }
        }
        if let provider, let rule = draft.rule, rule.portfolio == nil,
           let type = settings.providers.first(where: { $0.name == provider })?.type {
            warnAboutSpelling(of: rule.symbols, provider: provider, type: type, reader: reader)
            warnAboutVolume(of: rule, provider: provider, type: type, reader: reader)
        }
        guard var rule = draft.rule.take(), let provider, let notify, !notify.isEmpty else { return nil }
        rule.provider = provider
        rule.notify = notify
        return rule
    }

    /// The event rule of `draft` with its `notify` resolved as a price rule's, and a
    /// portfolio's holdings as its symbols; nil when something it needs is wrong (reported).
    func resolveEvent(_ draft: consuming RuleDraft) -> EventRule? {
        let reader = draft.reader
        let notify = resolveNotify(draft.notify, reader: reader)
        guard var rule = draft.eventRule.take() else { return nil }
        if rule.event == .split, !settings.providers.contains(where: { $0.type == "nasdaq" }) {
            reader.error("'split' is read from Nasdaq's splits calendar, and the main file has no provider of type \"nasdaq\"; "
                         + "add one (it need serve no rule; docs/events.md)", key: "event")
            return nil
        }
        if let name = rule.portfolio {
            guard let portfolio = portfolios.first(where: { $0.name == name }) else {
                reportMissingPortfolio(name, reader: reader)
                return nil
            }
            rule.symbols = PortfolioWatchlist.heldSymbols(of: portfolio)
            if rule.symbols.isEmpty {
                reader.file.warning("\(reader.name("portfolio")): portfolio '\(name)' holds nothing, so this rule watches no symbol",
                                    at: reader.path.appending("portfolio"))
            }
        }
        guard let notify, !notify.isEmpty else { return nil }
        rule.notify = notify
        return rule
    }

    /// Reports `portfolio` at the rule's `portfolio` key as missing, unless a portfolio file
    /// had errors (its own message says why then).
    private func reportMissingPortfolio(_ portfolio: String, reader: TableReader) {
        guard portfoliosComplete else { return }
        let names = portfolios.map(\.name)
        reader.error("no portfolio '\(portfolio)' in portfolios.d"
                     + (names.isEmpty ? " (there are none)" : "; portfolios: " + names.joined(separator: ", ")), key: "portfolio")
    }

    /// A rule's sinks: `written` when every one is declared, else the main file's default,
    /// else every sink; nil after reporting what is wrong.
    private func resolveNotify(_ written: [String]?, reader: TableReader) -> [String]? {
        if let written {
            let errors = reader.file.errorCount
            if settings.sinksReadable {
                reader.checkDeclared(written, key: "notify", kind: "sink", declared: settings.sinkNames)
            }
            return reader.file.errorCount == errors ? written : nil
        } else if reader.has("notify") {
            // Written wrongly; already reported at the rule.
            return nil
        } else if let fallback = settings.defaultNotify {
            return fallback
        } else if settings.defaultNotifyWritten {
            // The main file's `notify` is wrong; already reported there.
            return nil
        }
        return settings.sinkNames
    }

    /// ``resolve(_:)``'s decisions for the rules ``PlainRuleFileReader`` reads, worked out once
    /// per load: what a rule's `provider` and `notify` become, or nil when `resolve(_:)` would
    /// report anything about the rule or keep none (the file is then read the general way,
    /// which says why). Decides as `resolve(_:)` does, for rules without a portfolio or a
    /// series; a change there is a change here (`PlainRuleFileReaderTests` compares the two).
    struct QuietResolution: Sendable {
        /// A rule's provider when it names none; nil: such a rule is not resolved quietly.
        let providerFallback: String?
        /// The declared providers, when the main file's could be read (else any name is taken).
        let declaredProviders: [String]?
        /// A rule's sinks when it names none; nil: such a rule is not resolved quietly.
        let notifyFallback: [String]?
        /// The declared sinks, when the main file's could be read (else any name is taken).
        let declaredSinks: [String]?
        /// Each provider's type, for the check of symbols' spelling.
        let providerTypes: [(name: String, type: String)]

        func resolve(provider written: String?, notify writtenNotify: [String]?,
                     symbols: [String]) -> (provider: String, notify: [String])? {
            guard let provider = written ?? providerFallback else { return nil }
            if written != nil, let declaredProviders, !declaredProviders.contains(provider) { return nil }
            guard let notify = writtenNotify ?? notifyFallback, !notify.isEmpty else { return nil }
            if writtenNotify != nil, let declaredSinks, notify.contains(where: { !declaredSinks.contains($0) }) { return nil }
            if let type = providerTypes.first(where: { $0.name == provider })?.type,
               symbols.contains(where: { SymbolSpelling.correction(of: $0, providerType: type) != nil }) {
                return nil
            }
            return (provider, notify)
        }
    }

    var quietResolution: QuietResolution {
        let providerFallback: String? = if let fallback = settings.defaultProvider {
            fallback
        } else if !settings.defaultProviderWritten, settings.providerNames.count == 1 {
            settings.providerNames.first
        } else {
            nil
        }
        let notifyFallback: [String]? = if let fallback = settings.defaultNotify {
            fallback
        } else if settings.defaultNotifyWritten {
            nil
        } else {
            settings.sinkNames
        }
        return QuietResolution(providerFallback: providerFallback,
                               declaredProviders: settings.providersReadable ? settings.providerNames : nil,
                               notifyFallback: notifyFallback,
                               declaredSinks: settings.sinksReadable ? settings.sinkNames : nil,
                               providerTypes: settings.providers.map { ($0.name, $0.type) })
    }

    /// Warns about each symbol its provider would not know in this spelling (``SymbolSpelling``).
    private func warnAboutSpelling(of symbols: [String], provider: String, type: String, reader: TableReader) {
        let listed = reader.has("symbols")
        for (index, symbol) in symbols.enumerated() {
            guard let correction = SymbolSpelling.correction(of: symbol, providerType: type) else { continue }
            let key = listed ? "symbols" : "symbol"
            let path = listed ? reader.path.appending(key).appending(index: index) : reader.path.appending(key)
            reader.file.warning("\(reader.name(key)): expected a symbol as provider '\(provider)' (\(type)) writes it "
                                + "(\(correction.expected)), found \(Wording.quoted(symbol)); did you mean "
                                + "\(Wording.quoted(correction.spelling))?", at: path)
        }
    }

    /// Warns about a volume series on a provider whose quotes carry no day volume: the rule's
    /// bars have no volume once the warm-up's are used up, so it stays warming up.
    private func warnAboutVolume(of rule: Rule, provider: String, type: String, reader: TableReader) {
        guard !DayVolumeProviders.types.contains(type),
              let volume = rule.series?.series.first(where: { $0.indicator.input == .volume }) else { return }
        let key = reader.has("of") && rule.series?.of == volume ? "of" : (rule.condition.key)
        reader.file.warning("\(reader.name(key)): \(volume) is defined only on bars whose volume is known, and quotes of "
                            + "provider '\(provider)' (\(type)) carry no day volume (those of "
                            + DayVolumeProviders.types.sorted().joined(separator: ", ") + " do): this rule stays warming up",
                            at: reader.path.appending(key))
    }
}
