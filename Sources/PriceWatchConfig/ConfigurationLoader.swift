import PriceWatchCore

/// Loads the configuration: the main file, every rule file, their checks and the defaults
/// that connect them (`docs/configuration.md`, "Files", "Rules"; `docs/commands.md`, "Diagnostics").
///
/// Every problem of every file is reported at once, each as a `Diagnostic` with its position
/// when it is known: one bad rule does not stop the other rules from being checked, and a
/// syntax error in one rule file does not stop the other files. Secrets are resolved while
/// loading and never appear in a diagnostic.
public enum ConfigurationLoader {
    /// Loads the main file and every rule file; returns the configuration when there are no
    /// errors, and every diagnostic (errors and warnings) of every file, sorted by file then
    /// line.
    ///
    /// - Parameters:
    ///   - mainFile: the main file's path as the user gave it; diagnostics about it show this
    ///     path, and rule files show its directory joined with `rules` as written
    ///     (`etc/pricewatch/rules.d/tech.toml`).
    ///   - environment: the variables `{ env = "VAR" }` secrets and `CREDENTIALS_DIRECTORY` are
    ///     read from (`ProcessInfo.processInfo.environment` in the daemon).
    ///   - schemas: the provider and sink types and their keys (the application's adapter
    ///     catalog).
    public static func load(mainFile: String, environment: [String: String],
                            schemas: AdapterSchemas) -> (configuration: Configuration?, diagnostics: [Diagnostic]) {
        let directory = ConfigPaths.directory(of: mainFile)
        let baseDirectory = ConfigPaths.absolute(directory.isEmpty ? "." : directory)
        let mainPath = ConfigPaths.absolute(mainFile)
        let main = ConfigFile.read(absolutePath: mainPath, displayPath: mainFile, what: "configuration file")
        let settings = MainFileReader(file: main, baseDirectory: baseDirectory, environment: environment, schemas: schemas).read()
        let rulesKey = TOMLKeyPath(keys: "rules")

        // Which rules to check. When the main file is not valid TOML its rules are still
        // checked, at the `rules` path if it can be made out, so one pass shows every error.
        var rulesPath = settings.rules
        var rulesWritten = settings.rulesWritten
        if main.root == nil {
            guard ConfigPaths.kind(of: mainPath) == .file else { return (nil, main.diagnostics) }
            // What was parsed before the syntax error is known exactly.
            if case .string(let written)? = main.partialRoot["rules"], !written.isEmpty {
                rulesPath = written
                rulesWritten = true
            } else if main.partialRoot["rules"] != nil {
                rulesPath = nil
            }
        }
        var ruleSet: RuleSet?
        var rulesDisplay = ""
        if let rulesPath {
            rulesDisplay = ConfigPaths.join(directory, rulesPath)
            let absolute = ConfigPaths.absolute(rulesPath, relativeTo: baseDirectory)
            ruleSet = RuleSet.read(displayPath: rulesDisplay, absolutePath: absolute)
            if ruleSet == nil, rulesWritten, main.root != nil {
                main.error("rules: no such file or directory '\(absolute)'", at: rulesKey)
            }
        }
        let drafts = ruleSet?.drafts ?? []

        let (portfolios, portfolioDiagnostics) = PortfolioReader.load(mainFile: mainFile, environment: environment)
        if !portfolioDiagnostics.containsErrors {
            for digest in settings.digests {
                guard let names = digest.portfolios, let path = settings.digestPortfolioPaths[digest.name] else { continue }
                for (index, name) in names.enumerated() where !portfolios.contains(where: { $0.name == name }) {
                    let known = portfolios.map(\.name)
                    main.error("digest '\(digest.name)': portfolios: no portfolio '\(name)' in portfolios.d"
                               + (known.isEmpty ? " (there are none)" : "; portfolios: " + known.joined(separator: ", ")),
                               at: path.appending(index: index))
                }
            }
        }
        var configuration: Configuration?
        if main.root != nil {
            let (rules, portfolioRules) = resolve(drafts, settings: settings, main: main, portfolios: portfolios,
                                                  portfoliosComplete: !portfolioDiagnostics.containsErrors)
            var retention = settings.retention
            if drafts.isEmpty {
                // Only when no rule file has an error: a file that failed has its own message.
                if rulesPath != nil, ruleSet != nil || !rulesWritten, !(ruleSet?.diagnostics.containsErrors ?? false) {
                    main.warning("no rules are defined in '\(rulesDisplay)'; nothing will be watched", at: .root)
                }
            } else if rules.count + portfolioRules.count == drafts.count {
                warnUnused(rules: [rules, portfolioRules], settings: settings, main: main)
                retention = effectiveRetention(rules: rules, settings: settings, main: main)
            }
            let diagnostics = main.diagnostics + (ruleSet?.diagnostics ?? []) + portfolioDiagnostics
            if !diagnostics.containsErrors {
                configuration = Configuration(mainFile: mainFile, statePath: settings.statePath,
                                              interval: settings.interval, retention: retention,
                                              providers: settings.providers, sinks: settings.sinks,
                                              rules: rules,
                                              defaultProvider: settings.defaultProvider,
                                              staleAfter: settings.staleAfter, failureWarningAfter: settings.failureWarningAfter)
                configuration?.historyRetention = settings.historyRetention
                configuration?.http = settings.http
                configuration?.digests = settings.digests
                configuration?.portfolios = portfolios
                configuration?.portfolioRules = portfolioRules
            }
        }
        let diagnostics = (main.diagnostics + (ruleSet?.diagnostics ?? []) + portfolioDiagnostics).sortedByLocation()
        return (configuration, diagnostics)
    }

    /// For `pricewatch backtest --rules PATH`: a rule file or a directory of *.toml rule files,
    /// with no main file: a rule's `provider` and `notify` are NOT checked (keep them as written
    /// or nil/[]).
    ///
    /// - Parameter path: the path as the user gave it; diagnostics show it (joined with the
    ///   file name for a directory).
    public static func loadRules(at path: String) -> (rules: [Rule]?, diagnostics: [Diagnostic]) {
        let absolute = ConfigPaths.absolute(path)
        guard let set = RuleSet.read(displayPath: path, absolutePath: absolute) else {
            return (nil, [.error("cannot read the rules: no such file or directory", path: path)])
        }
        // A portfolio rule watches a valuation, which a price series cannot replay.
        for draft in set.drafts where draft.rule?.portfolio != nil {
            draft.reader.tableWarning("watches portfolio '\(draft.rule?.portfolio?.portfolio ?? "")': not backtested "
                                      + "(a backtest replays prices)")
        }
        var diagnostics = set.diagnostics
        if set.drafts.isEmpty && !diagnostics.containsErrors {
            diagnostics.append(.warning("no rules are defined", path: path))
        }
        diagnostics = diagnostics.sortedByLocation()
        guard !diagnostics.containsErrors else { return (nil, diagnostics) }
        return (set.drafts.compactMap(\.rule).filter { $0.portfolio == nil }, diagnostics)
    }

    // MARK: - Across files

    /// Applies the main file's defaults to each rule's `provider` and `notify`, checking the
    /// names; returns the rules that are complete, price rules apart from portfolio rules.
    ///
    /// A portfolio rule's portfolio must be one of `portfolios`, and its position one the
    /// portfolio holds; when a portfolio file has errors (`portfoliosComplete` false) a missing
    /// one is not reported again.
    private static func resolve(_ drafts: [RuleDraft], settings: MainSettings, main: ConfigFile,
                                portfolios: [Portfolio], portfoliosComplete: Bool) -> (rules: [Rule], portfolioRules: [Rule]) {
        guard !drafts.isEmpty else { return ([], []) }
        if settings.providersReadable && settings.providerNames.isEmpty {
            main.error("no providers are defined; rules need at least one [providers.NAME] table", at: .root)
        }
        if settings.sinksReadable && settings.sinkNames.isEmpty {
            main.error("no sinks are defined; alerts need at least one [sinks.NAME] table", at: .root)
        }
        var rules: [Rule] = []
        var portfolioRules: [Rule] = []
        rules.reserveCapacity(drafts.count)
        for draft in drafts {
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
                                  + "\(main.displayPath) (providers: \(settings.providerNames.joined(separator: ", ")))")
            }

            var notify: [String]?
            if let written = draft.notify {
                let errors = reader.file.errorCount
                if settings.sinksReadable {
                    reader.checkDeclared(written, key: "notify", kind: "sink", declared: settings.sinkNames)
                }
                if reader.file.errorCount == errors { notify = written }
            } else if reader.has("notify") {
                // Written wrongly; already reported at the rule.
            } else if let fallback = settings.defaultNotify {
                notify = fallback
            } else if settings.defaultNotifyWritten {
                // The main file's `notify` is wrong; already reported there.
            } else {
                notify = settings.sinkNames
            }

            if let target = draft.rule?.portfolio {
                if let portfolio = portfolios.first(where: { $0.name == target.portfolio }) {
                    let held = PortfolioWatchlist.heldSymbols(of: portfolio)
                    if let position = target.position, !held.contains(position) {
                        reader.error("portfolio '\(target.portfolio)' holds no '\(position)'; it holds " + Wording.quotedList(held),
                                     key: "position")
                        continue
                    }
                } else {
                    if portfoliosComplete {
                        let names = portfolios.map(\.name)
                        reader.error("no portfolio '\(target.portfolio)' in portfolios.d"
                                     + (names.isEmpty ? " (there are none)" : "; portfolios: " + names.joined(separator: ", ")),
                                     key: "portfolio")
                    }
                    continue
                }
            }
            if var rule = draft.rule, let provider, let notify, !notify.isEmpty {
                rule.provider = provider
                rule.notify = notify
                if rule.portfolio == nil { rules.append(rule) } else { portfolioRules.append(rule) }
            }
        }
        return (rules, portfolioRules)
    }

    /// Warns about providers no rule uses (directly or as a fallback of a used provider) and
    /// sinks no rule or digest notifies.
    private static func warnUnused(rules lists: [[Rule]], settings: MainSettings, main: ConfigFile) {
        // Read in place by index: a copy of each rule (as `compactMap` makes) is a noticeable
        // part of loading 100,000 rules.
        var used = Set<String>()
        var notified = Set(settings.digests.flatMap(\.notify))
        for rules in lists {
            for index in rules.indices {
                if let provider = rules[index].provider { used.insert(provider) }
                notified.formUnion(rules[index].notify)
            }
        }
        var pending = Array(used)
        while let name = pending.popLast() {
            for fallback in settings.providers.first(where: { $0.name == name })?.fallback ?? [] where used.insert(fallback).inserted {
                pending.append(fallback)
            }
        }
        for provider in settings.providers where !used.contains(provider.name) {
            main.warning("providers.\(TOMLKeyPath.quotedIfNeeded(provider.name)): not used by any rule",
                         at: TOMLKeyPath(keys: "providers", provider.name))
        }
        for sink in settings.sinks where !notified.contains(sink.name) {
            main.warning("sinks.\(TOMLKeyPath.quotedIfNeeded(sink.name)): not used by any rule",
                         at: TOMLKeyPath(keys: "sinks", sink.name))
        }
    }

    /// The retention to use: never shorter than the longest `from` window of a rule, with a
    /// warning when the configured one is.
    private static func effectiveRetention(rules: [Rule], settings: MainSettings, main: ConfigFile) -> RuleDuration {
        var longest: (index: Int, window: RuleDuration)?
        for index in rules.indices {
            guard let window = rules[index].window, window > longest?.window ?? settings.retention else { continue }
            longest = (index, window)
        }
        guard let longest else { return settings.retention }
        let configured = settings.retentionWritten ? "retention (\(settings.retention))" : "retention (default \(settings.retention))"
        main.warning("\(configured) is shorter than the longest rule window (from = \"\(longest.window)\" in rule "
                     + "'\(rules[longest.index].id)'); keeping \(longest.window) of history", at: TOMLKeyPath(keys: "retention"))
        return longest.window
    }
}
