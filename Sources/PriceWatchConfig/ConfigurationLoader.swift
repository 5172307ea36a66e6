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
    ///   - cache: the rule files of the last load without errors (the daemon's, across
    ///     reloads): those unchanged since are not read again. When this load has no error, it
    ///     replaces what the cache holds.
    public static func load(mainFile: String, environment: [String: String], schemas: AdapterSchemas,
                            cache: RuleFileCache? = nil) -> (configuration: Configuration?, diagnostics: [Diagnostic]) {
        load(mainFile: mainFile, environment: environment, schemas: schemas, cache: cache, readingPlainRuleFiles: true)
    }

    /// ``load(mainFile:environment:schemas:cache:)``; with `readingPlainRuleFiles` false, every
    /// rule file is read the general way (tests compare the two ways).
    static func load(mainFile: String, environment: [String: String], schemas: AdapterSchemas, cache: RuleFileCache?,
                     readingPlainRuleFiles: Bool) -> (configuration: Configuration?, diagnostics: [Diagnostic]) {
        let directory = ConfigPaths.directory(of: mainFile)
        let baseDirectory = ConfigPaths.absolute(directory.isEmpty ? "." : directory)
        let mainPath = ConfigPaths.absolute(mainFile)
        let main = ConfigFile.read(absolutePath: mainPath, displayPath: mainFile, what: "configuration file")
        if let root = main.root, RuleFileAsMain.isRuleFile(root) {
            main.error(RuleFileAsMain.message(mainFile: mainFile), at: .root)
            return (nil, main.diagnostics)
        }
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
        // Portfolios first: each rule is finished (its portfolio checked) as its file is read.
        let (portfolios, portfolioDiagnostics) = PortfolioReader.load(mainFile: mainFile, environment: environment)
        var ruleSet: RuleSet?
        var rulesDisplay = ""
        // What the rules are finished against, when the main file is valid (the cache's key).
        var cacheContext: RuleFileCache.Context?
        if let rulesPath {
            rulesDisplay = ConfigPaths.join(directory, rulesPath)
            let absolute = ConfigPaths.absolute(rulesPath, relativeTo: baseDirectory)
            // The main file's defaults apply only when it is valid; otherwise the rules are
            // checked on their own.
            let finish: RuleSet.Finish
            var finishEvent: RuleSet.FinishEvent = { _ in nil }
            var plain: PlainRuleFileReader?
            if main.root != nil {
                let resolver = RuleResolver(settings: settings, mainDisplayPath: main.displayPath, portfolios: portfolios,
                                            portfoliosComplete: !portfolioDiagnostics.containsErrors)
                finish = { resolver.resolve($0) }
                finishEvent = { resolver.resolveEvent($0) }
                cacheContext = RuleFileCache.Context(resolver)
                if readingPlainRuleFiles { plain = PlainRuleFileReader(resolver: resolver) }
            } else {
                finish = { _ in nil }
            }
            ruleSet = RuleSet.read(displayPath: rulesDisplay, absolutePath: absolute,
                                   kept: cacheContext.flatMap { cache?.generation(for: $0) }, plain: plain, finish: finish,
                                   finishEvent: finishEvent)
            if ruleSet == nil, rulesWritten, main.root != nil {
                main.error("rules: no such file or directory '\(absolute)'", at: rulesKey)
            }
        }
        let draftCount = ruleSet?.draftCount ?? 0
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
            if draftCount > 0 { checkAdapters(settings: settings, main: main) }
            let allRules = ruleSet?.rules ?? []
            let eventRules = ruleSet?.eventRules ?? []
            var rules = allRules
            var portfolioRules: [Rule] = []
            if rules.contains(where: { $0.portfolio != nil }) {
                portfolioRules = rules.filter { $0.portfolio != nil }
                rules.removeAll { $0.portfolio != nil }
            }
            var retention = settings.retention
            if draftCount == 0 {
                // Only when no rule file has an error: a file that failed has its own message.
                if rulesPath != nil, ruleSet != nil || !rulesWritten, !(ruleSet?.diagnostics.containsErrors ?? false) {
                    main.warning("no rules are defined in '\(rulesDisplay)'; nothing will be watched", at: .root)
                }
            } else if allRules.count + eventRules.count == draftCount {
                warnUnused(rules: allRules, eventRules: eventRules, settings: settings, main: main)
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
                configuration?.ingest = settings.ingest
                configuration?.portfolios = portfolios
                configuration?.portfolioRules = portfolioRules
                configuration?.eventRules = eventRules
                configuration?.news = settings.news
            }
        }
        let diagnostics = (main.diagnostics + (ruleSet?.diagnostics ?? []) + portfolioDiagnostics).sortedByLocation()
        if let cache, configuration != nil, let ruleSet, let cacheContext {
            cache.replace(with: ruleSet.keptFiles(context: cacheContext))
        }
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
        let finish: RuleSet.Finish = { draft in
            // A portfolio rule watches a valuation, which a price series cannot replay.
            if let target = draft.rule?.portfolio {
                draft.reader.tableWarning("watches portfolio '\(target.portfolio)': not backtested (a backtest replays prices)")
                return nil
            }
            return draft.rule
        }
        guard let set = RuleSet.read(displayPath: path, absolutePath: absolute, finish: finish) else {
            return (nil, [.error("cannot read the rules: no such file or directory", path: path)])
        }
        var diagnostics = set.diagnostics
        if set.draftCount == 0 && !diagnostics.containsErrors {
            diagnostics.append(.warning("no rules are defined", path: path))
        }
        diagnostics = diagnostics.sortedByLocation()
        guard !diagnostics.containsErrors else { return (nil, diagnostics) }
        return (set.rules, diagnostics)
    }

    // MARK: - Across files

    /// Rules need a provider and a sink: reports a main file that defines none.
    private static func checkAdapters(settings: MainSettings, main: ConfigFile) {
        if settings.providersReadable && settings.providerNames.isEmpty {
            main.error("no providers are defined; rules need at least one [providers.NAME] table", at: .root)
        }
        if settings.sinksReadable && settings.sinkNames.isEmpty {
            main.error("no sinks are defined; alerts need at least one [sinks.NAME] table", at: .root)
        }
    }

    /// Warns about providers no rule uses (directly or as a fallback of a used provider) and
    /// sinks no rule or digest notifies.
    private static func warnUnused(rules: [Rule], eventRules: [EventRule], settings: MainSettings, main: ConfigFile) {
        // Read in place by index: a copy of each rule (as `compactMap` makes) is a noticeable
        // part of loading 100,000 rules. Rules mostly repeat their neighbour's provider and
        // sinks (a default, or one file's choice): only a change is added to the sets.
        var used = Set<String>()
        var notified = Set(settings.digests.flatMap(\.notify) + settings.ingest.flatMap(\.notify) + eventRules.flatMap(\.notify))
        var lastProvider: String?
        var lastNotify: [String] = []
        for index in rules.indices {
            if let provider = rules[index].provider, provider != lastProvider {
                used.insert(provider)
                lastProvider = provider
            }
            if rules[index].notify != lastNotify {
                notified.formUnion(rules[index].notify)
                lastNotify = rules[index].notify
            }
        }
        // The calendar sources (docs/events.md): the first provider of each of these types
        // serves the calendar rules.
        if eventRules.contains(where: { $0.event.isCalendarDate }) {
            for type in ["yahoo", "nasdaq", "finnhub"] {
                if let provider = settings.providers.first(where: { $0.type == type }) { used.insert(provider.name) }
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
