import FoundationEssentials
import PriceWatchCore
import PriceWatchTOML

/// Reads the main file (`pricewatch.toml`): its keys, its `[providers.NAME]` and
/// `[sinks.NAME]` tables, and their secrets, reporting every problem to the file.
struct MainFileReader {
    let file: ConfigFile
    /// The main file's directory, absolute: relative paths in the main file start there.
    let baseDirectory: String
    let environment: [String: String]
    /// Every provider and sink type's keys (the adapter catalog's).
    let schemas: AdapterSchemas

    /// The keys of the main file's root table.
    static let keys = ["rules", "state", "interval", "retention", "stale_after", "failure_warning_after",
                       "provider", "notify", "providers", "sinks", "history_retention", "http", "digest", "ingest", "news"]

    private var secrets: SecretResolver { SecretResolver(baseDirectory: baseDirectory, environment: environment) }

    /// A decoded value of an `AdapterSchema` field.
    func read() -> MainSettings {
        var settings = MainSettings()
        guard let root = file.root else { return settings }
        let reader = TableReader(file: file, path: .root, values: root, subject: .root)
        reader.checkUnknownKeys(allowed: Self.keys)

        if reader.has("rules") {
            settings.rulesWritten = true
            settings.rules = reader.nonEmptyString("rules", expected: "a path")
        }
        if let state = reader.nonEmptyString("state", expected: "a path") {
            settings.statePath = ConfigPaths.absolute(state, relativeTo: baseDirectory)
        }
        if let interval = reader.duration("interval") { settings.interval = interval }
        settings.retentionWritten = reader.has("retention")
        if let retention = reader.duration("retention") { settings.retention = retention }
        if let staleAfter = reader.duration("stale_after") { settings.staleAfter = staleAfter }
        if let failures = reader.positiveInteger("failure_warning_after") { settings.failureWarningAfter = failures }
        if let historyRetention = reader.duration("history_retention") { settings.historyRetention = historyRetention }

        readProviders(reader, into: &settings)
        readSinks(reader, into: &settings)
        settings.http = readHTTP(reader)
        settings.news = readNews(reader)

        if reader.has("provider") {
            settings.defaultProviderWritten = true
            if let name = reader.nonEmptyString("provider", expected: "a provider name") {
                if !settings.providersReadable || settings.providerNames.contains(name) {
                    settings.defaultProvider = name
                } else {
                    reader.error(Wording.unknownName("provider", name, among: settings.providerNames), key: "provider")
                }
            }
        }
        if reader.has("notify") {
            settings.defaultNotifyWritten = true
            if let names = reader.nameList("notify", kind: "sink") {
                let errors = file.errorCount
                if settings.sinksReadable {
                    reader.checkDeclared(names, key: "notify", kind: "sink", declared: settings.sinkNames)
                }
                if file.errorCount == errors { settings.defaultNotify = names }
            }
        }
        (settings.digests, settings.digestPortfolioPaths) = readDigests(reader, settings: settings)
        settings.ingest = readIngest(reader, settings: settings)
        return settings
    }

    // MARK: - Providers

    private func readProviders(_ root: TableReader, into settings: inout MainSettings) {
        guard root.has("providers") else { return }
        guard let tables = root.tables("providers", expected: "a table of [providers.NAME] tables") else {
            settings.providersReadable = false
            return
        }
        var fallbacks: [(reader: TableReader, names: [String])] = []
        for (name, values) in tables {
            settings.providerNames.append(name)
            let reader = TableReader(file: file, path: TOMLKeyPath(keys: "providers", name), values: values, subject: .table)
            let errors = file.errorCount
            let (provider, fallback) = readProvider(name, reader, defaultInterval: settings.interval)
            if let fallback { fallbacks.append((reader, fallback)) }
            if let provider, file.errorCount == errors { settings.providers.append(provider) }
        }
        for (reader, names) in fallbacks {
            let own = reader.path.components.last.flatMap { if case .key(let name) = $0 { name } else { nil } }
            for (index, name) in names.enumerated() {
                let elementPath = reader.path.appending("fallback").appending(index: index)
                if name == own {
                    reader.error("a provider cannot fall back to itself ('\(name)')", key: "fallback", at: elementPath)
                } else if !settings.providerNames.contains(name) {
                    reader.error(Wording.unknownName("provider", name, among: settings.providerNames),
                                 key: "fallback", at: elementPath)
                }
            }
        }
    }

    /// The provider (when its table is valid) and its `fallback` as written (checked once every
    /// provider name is known).
    private func readProvider(_ name: String, _ reader: TableReader,
                              defaultInterval: RuleDuration) -> (ProviderConfiguration?, fallback: [String]?) {
        checkName(name, kind: "provider", reader: reader)
        let schema = readType(reader, kind: "provider", among: schemas.providers)
        // With an unknown type, keys are checked against every type's keys, to still catch typos.
        let extraKeys = schema?.keys ?? schemas.providers.flatMap(\.keys)
        reader.checkUnknownKeys(allowed: ProviderTypes.commonKeys + extraKeys)
        let baseURL = url("base_url", reader)
        let interval = reader.duration("interval")
        let apiKey = secrets.resolve("api_key", in: reader)
        let fallback = reader.nameList("fallback", kind: "provider", allowingEmpty: true)
        let requestsPerMinute = positiveDecimal("requests_per_minute", reader)
        guard let schema else { return (nil, fallback) }
        if schema.requiresAPIKey, !reader.has("api_key") {
            reader.missing("missing required key 'api_key' for type '\(schema.type)' (the service's API key, as a secret)",
                           keys: ["api_key"])
        }
        let fields = decode(schema, reader)
        let provider = ProviderConfiguration(name: name, type: schema.type, baseURL: baseURL,
                                             interval: interval ?? defaultInterval, apiKey: apiKey,
                                             fallback: fallback ?? [], file: fields.path("file"), options: fields,
                                             requestsPerMinute: requestsPerMinute.map { Double($0.scaled) / Double(ExactDecimal.unit) })
        return (provider, fallback)
    }

    /// A number greater than zero.
    private func positiveDecimal(_ key: String, _ reader: TableReader) -> ExactDecimal? {
        guard let decimal = reader.decimal(key) else { return nil }
        guard decimal > .zero else {
            reader.error("expected a number greater than 0, found \(decimal)", key: key)
            return nil
        }
        return decimal
    }

    // MARK: - Sinks

    private func readSinks(_ root: TableReader, into settings: inout MainSettings) {
        guard root.has("sinks") else { return }
        guard let tables = root.tables("sinks", expected: "a table of [sinks.NAME] tables") else {
            settings.sinksReadable = false
            return
        }
        for (name, values) in tables {
            settings.sinkNames.append(name)
            let reader = TableReader(file: file, path: TOMLKeyPath(keys: "sinks", name), values: values, subject: .table)
            let errors = file.errorCount
            checkName(name, kind: "sink", reader: reader)
            // `url = "tgram://TOKEN/CHAT"` without `type`: the one-line form (Apprise's URLs).
            let isShorthand = !reader.has("type") && reader.has("url")
            let shorthand = isShorthand ? readShorthand(reader) : nil
            // A URL that stands for no sink was reported at `url`; there is no type to read.
            let schema = isShorthand ? shorthand?.schema : readType(reader, kind: "sink", among: schemas.sinks)
            reader.checkUnknownKeys(allowed: SinkTypes.commonKeys + (shorthand == nil ? [] : ["url"])
                                    + (schema?.keys ?? schemas.sinks.flatMap(\.keys)))
            let maxAge = reader.duration("max_age") ?? SinkConfiguration.defaultMaxAge
            let groupWait = reader.duration("group_wait")
            if let groupWait, groupWait >= maxAge {
                reader.error("'group_wait' (\(groupWait)) must be shorter than 'max_age' (\(maxAge))", key: "group_wait")
            }
            var concurrency = SinkConfiguration.defaultConcurrency
            if let written = reader.positiveInteger("concurrency") {
                if written > SinkTypes.maximumConcurrency {
                    reader.error("expected at most \(SinkTypes.maximumConcurrency) deliveries in flight, found \(written)",
                                 key: "concurrency")
                }
                concurrency = written
            }
            let quietHours = readQuietHours(reader)
            let rateLimit = readRateLimit(reader)
            guard let schema else { continue }
            let fields = decode(schema, reader, expanded: shorthand?.options)
            if file.errorCount == errors {
                var sink = SinkConfiguration(name: name, type: schema.type, format: fields.string("format"),
                                             options: fields, maxAge: maxAge, groupWait: groupWait,
                                             concurrency: concurrency)
                sink.quietHours = quietHours
                switch rateLimit {
                case .unwritten: sink.rateLimit = schema.defaultRateLimit
                case .off: sink.rateLimit = nil
                case .rate(let rate): sink.rateLimit = rate
                }
                settings.sinks.append(sink)
            }
        }
    }

    /// What a table's `rate_limit` says.
    private enum WrittenRateLimit {
        /// Not written (or wrong, and reported): the type's default.
        case unwritten
        /// `"off"`: no limit, even where the type has one.
        case off
        case rate(DeliveryRateLimit)
    }

    /// `rate_limit = "20/min"`, or `"off"`.
    private func readRateLimit(_ reader: TableReader) -> WrittenRateLimit {
        let expected = "a rate such as \"20/min\" (attempts per s, min, h or d, or per a multiple: \"10/5min\") or \"off\""
        guard let text = reader.nonEmptyString("rate_limit", expected: expected) else { return .unwritten }
        if text == "off" { return .off }
        guard let rate = DeliveryRateLimit(text) else {
            reader.error("expected \(expected), found \(Wording.quoted(text))", key: "rate_limit")
            return .unwritten
        }
        return .rate(rate)
    }

    /// `quiet = "22:00-07:00"` and `quiet_timezone = "Europe/Berlin"` (UTC when not given:
    /// the daemon never depends on the host's zone).
    private func readQuietHours(_ reader: TableReader) -> QuietHours? {
        let zoneName = reader.nonEmptyString("quiet_timezone", expected: "an IANA time zone such as \"Europe/Berlin\"")
        var zone = CalendarSchedule.utc
        if let zoneName {
            if let found = TimeZone(identifier: zoneName) {
                zone = found
            } else {
                reader.error("unknown time zone \(Wording.quoted(zoneName)) (expected an IANA name from the system's tzdata, "
                             + "such as Europe/Berlin or America/New_York)", key: "quiet_timezone")
            }
        }
        guard let text = reader.nonEmptyString("quiet", expected: "quiet hours such as \"22:00-07:00\"") else {
            if zoneName != nil, !reader.has("quiet") {
                reader.error("'quiet_timezone' without 'quiet': add quiet = \"22:00-07:00\" or remove it", key: "quiet_timezone")
            }
            return nil
        }
        do {
            return try QuietHours(parsing: text, timeZone: zone)
        } catch {
            reader.error(error.description, key: "quiet")
            return nil
        }
    }

    // MARK: - Shared

    private func checkName(_ name: String, kind: String, reader: TableReader) {
        guard !Wording.isIdentifier(name, allowingUppercase: true, allowingDots: false) else { return }
        reader.tableError("expected a \(kind) name of letters, digits, '_' and '-' (starting with a letter or digit), "
                          + "found \(Wording.quoted(name))")
    }

    /// The webhook sink's service format that `type` names (`"ntfy"`, `"Slack"`), for a sink
    /// written as `type = "ntfy"`; `nil` for anything else.
    static func webhookFormat(named type: String, among all: [AdapterSchema]) -> String? {
        guard let field = all.first(where: { $0.type == "webhook" })?.fields.first(where: { $0.key == "format" }),
              case .choice(let formats) = field.kind else { return nil }
        return formats.first { $0 != "json" && $0 == type.lowercased() }
    }

    /// The schemes of every sink type's one-line form, in the catalog's order.
    var shorthandSchemes: [String] { schemas.sinks.flatMap { $0.shorthand?.schemes ?? [] } }

    /// Reads `url` of a table written without `type` (`url = "tgram://TOKEN/CHAT"`, or a
    /// secret `{ credential = "telegram-url" }` holding such a URL): the sink type its scheme
    /// names and the options of the long form. Problems are reported at `url` and never show
    /// the URL, only its scheme.
    private func readShorthand(_ reader: TableReader) -> (schema: AdapterSchema, options: AdapterOptions)? {
        let text: String, origin: String
        switch reader["url"] {
        case .string(let written)?:
            text = written
            origin = "url"
        case .table?:
            guard let secret = secrets.resolve("url", in: reader) else { return nil }
            text = secret.value
            origin = "url from \(secret.origin)"
        case let other?:
            reader.error("expected a URL such as \"tgram://TOKEN/CHAT\" (or \(SecretResolver.expectedForm) holding one), "
                         + "found \(other.kindDescription)", key: "url")
            return nil
        case nil:
            return nil
        }
        let known = "known schemes: \(shorthandSchemes.joined(separator: ", ")); or write type = \"...\" and the type's keys"
        let url: ShorthandURL
        do {
            url = try ShorthandURL(text)
        } catch {
            reader.error("\(error.message) (\(known))", key: "url")
            return nil
        }
        guard let schema = schemas.sinks.first(where: { $0.shorthand?.schemes.contains(url.scheme) == true }),
              let shorthand = schema.shorthand else {
            var message = "unknown URL scheme '\(url.scheme)://' for a sink written without 'type' (\(known))"
            if url.scheme == "http" || url.scheme == "https" {
                message += "; a plain web address is a webhook: write type = \"webhook\", or use json://HOST/PATH"
            }
            reader.error(message, key: "url")
            return nil
        }
        do {
            return (schema, try shorthand.expand(url, origin))
        } catch {
            reader.error("\(url.scheme):// URL: \(error.message) (expected \(Wording.quotedList(shorthand.examples, quote: "", conjunction: "or")))",
                         key: "url")
            return nil
        }
    }

    /// Reads `type` and returns its schema; a missing or unknown type is reported.
    private func readType(_ reader: TableReader, kind: String, among all: [AdapterSchema]) -> AdapterSchema? {
        let known = all.map(\.type)
        guard reader.require("type", " (known types: \(known.joined(separator: ", ")))"),
              let type = reader.nonEmptyString("type", expected: "a \(kind) type") else { return nil }
        guard let schema = all.first(where: { $0.type == type }) else {
            if kind == "sink", let format = Self.webhookFormat(named: type, among: all) {
                // A service that is one of the webhook sink's formats, not a sink type of its own.
                reader.error("unknown sink type '\(type)'; \(type) is a format of the webhook sink: write "
                             + "type = \"webhook\" and format = \"\(format)\" (known types: \(known.joined(separator: ", ")))",
                             key: "type")
            } else {
                reader.error(Wording.unknownType(kind, type, known: known), key: "type")
            }
            return nil
        }
        return schema
    }

    func url(_ key: String, _ reader: TableReader) -> String? {
        guard let text = reader.nonEmptyString(key, expected: "a URL") else { return nil }
        let lowercased = text.lowercased()
        for scheme in ["http://", "https://"] where lowercased.hasPrefix(scheme) && text.count > scheme.count {
            return text
        }
        // `ntfy.sh/topic`: a host and path without a scheme.
        let hint = text.contains("://") ? "" : "; add \"https://\" in front"
        reader.error("expected an http:// or https:// URL, found \(URLDisplay.schemeAndHost(text))\(hint)", key: key)
        return nil
    }

    /// Decodes the type-specific fields of `schema`; missing required fields are reported,
    /// optional fields that are not written get their schema default.
    /// `expanded`: the options a one-line URL stands for; keys written beside it replace them.
    private func decode(_ schema: AdapterSchema, _ reader: TableReader, expanded: AdapterOptions? = nil) -> AdapterOptions {
        let errors = file.errorCount
        // Optional keys that are not written take their schema default (the only one there is).
        let result = schema.filling(decodeWritten(schema, reader, expanded: expanded))
        if file.errorCount == errors, let check = schema.check {
            for problem in check(result) {
                if let index = problem.index {
                    reader.error(problem.message, key: problem.key, at: reader.path.appending(problem.key).appending(index: index))
                } else {
                    reader.error(problem.message, key: problem.key)
                }
            }
        }
        return result
    }

    /// The fields of `schema` that the table writes, checked and decoded.
    private func decodeWritten(_ schema: AdapterSchema, _ reader: TableReader, expanded: AdapterOptions? = nil) -> AdapterOptions {
        var result = expanded ?? AdapterOptions()
        for field in schema.fields {
            // In the one-line form, `url` is the shorthand itself, not the type's own `url`.
            guard reader.has(field.key), expanded == nil || field.key != "url" else {
                if field.required, result[field.key] == nil {
                    reader.missing("missing required key '\(field.key)' for type '\(schema.type)' (\(field.summary))",
                                   keys: [field.key])
                }
                continue
            }
            switch field.kind {
            case .string:
                if let text = reader.nonEmptyString(field.key) { result[field.key] = .string(text) }
            case .choice(let options):
                guard let text = reader.string(field.key, expected: Wording.quotedList(options, quote: "\"", conjunction: "or")) else { break }
                if options.contains(text) {
                    result[field.key] = .string(text)
                } else {
                    reader.error("expected \(Wording.quotedList(options, quote: "\"", conjunction: "or")), found \(Wording.quoted(text))",
                                 key: field.key)
                }
            case .url:
                if let text = url(field.key, reader) { result[field.key] = .string(text) }
            case .existingFile:
                guard let written = reader.nonEmptyString(field.key, expected: "a path") else { break }
                let path = ConfigPaths.absolute(written, relativeTo: baseDirectory)
                if let reason = ConfigPaths.unreadableReason(path) {
                    reader.error("cannot read '\(path)': \(reason)", key: field.key)
                } else {
                    result[field.key] = .path(path)
                }
            case .secret:
                if let secret = secrets.resolve(field.key, in: reader) { result[field.key] = .secret(secret) }
            case .standardWebhooksSecret:
                guard let secret = secrets.resolve(field.key, in: reader) else { break }
                if let problem = StandardWebhooksSecret.problem(with: secret) {
                    reader.error(problem, key: field.key)
                } else {
                    result[field.key] = .secret(secret)
                }
            case .urlWithSchemes(let schemes):
                guard let text = reader.nonEmptyString(field.key, expected: "a URL") else { break }
                let lowercased = text.lowercased()
                if schemes.contains(where: { lowercased.hasPrefix($0 + "://") && text.count > $0.count + 3 }) {
                    result[field.key] = .string(text)
                } else {
                    let examples = schemes.map { "\($0)://" }
                    reader.error("expected a \(Wording.quotedList(examples, quote: "", conjunction: "or")) URL, found \(URLDisplay.schemeAndHost(text))",
                                 key: field.key)
                }
            case .duration:
                if let duration = reader.duration(field.key) { result[field.key] = .duration(duration) }
            case .positiveInteger:
                if let integer = reader.positiveInteger(field.key) { result[field.key] = .integer(integer) }
            case .positiveDecimal:
                guard let decimal = reader.decimal(field.key) else { break }
                if decimal > .zero {
                    result[field.key] = .decimal(decimal)
                } else {
                    reader.error("expected a number greater than 0, found \(decimal)", key: field.key)
                }
            case .boolean:
                if let flag = reader.bool(field.key) { result[field.key] = .boolean(flag) }
            case .stringList:
                guard let strings = reader.stringArray(field.key, expected: "an array of strings") else { break }
                if strings.isEmpty {
                    reader.error("expected at least one string, found an empty array", key: field.key)
                } else if let index = strings.firstIndex(where: \.isEmpty) {
                    reader.error("expected a non-empty string, found an empty string at index \(index)", key: field.key)
                } else {
                    result[field.key] = .strings(strings)
                }
            case .stringTable:
                if let pairs = reader.stringTable(field.key) { result[field.key] = .stringTable(pairs) }
            }
        }
        return result
    }
}
