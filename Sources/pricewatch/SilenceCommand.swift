import ArgumentParser
import FoundationEssentials
import PriceWatchApp
import PriceWatchCore
import PriceWatchPresentation

/// `pricewatch silence add|list|expire`: the operator's silences (`docs/silences.md`).
struct SilenceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "silence",
        abstract: "Silence the alerts of a rule or a symbol for a while.",
        discussion: """
            A silenced alert is still fired and recorded (the rule's state advances as usual) and \
            listed by `pricewatch alerts` with the delivery state `silenced`, but it is never \
            delivered. Silences live in the state database; a running daemon applies a change \
            within seconds, without a reload.
            """,
        subcommands: [Add.self, List.self, Expire.self])

    /// `silence add --rule ID | --symbol SYMBOL [--for DURATION | --until TIME] [--comment TEXT]`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a silence.",
            discussion: """
                Silences every alert of one rule (--rule) or of one symbol (--symbol), from now \
                for --for (default 1h) or until --until: a time of day (23:00, its next \
                occurrence), a local date and time (2024-10-02 23:00, in the local time zone: TZ \
                or /etc/localtime) or RFC 3339 (2024-10-02T21:00:00Z). Prints the new silence.
                """)

        @OptionGroup var config: ConfigOption

        @Option(help: ArgumentHelp("Silence the alerts of this rule id.", valueName: "id"),
                completion: .custom { words, _, _ in NameCompletion.rules(words: words) })
        var rule: String?

        @Option(help: ArgumentHelp("Silence the alerts of this symbol (any rule).", valueName: "symbol"))
        var symbol: String?

        @Option(name: .customLong("for"), help: ArgumentHelp("How long, from now (30m, 2h, 1d); default 1h.", valueName: "duration"))
        var duration: String?

        @Option(help: ArgumentHelp("Until when: 23:00, 2024-10-02 23:00 (local time) or RFC 3339.", valueName: "time"))
        var until: String?

        @Option(help: ArgumentHelp("Why (shown by silence list).", valueName: "text"))
        var comment: String = ""

        @Flag(help: "Add the silence even when no rule has the id or watches the symbol (a silence ahead of its rule).")
        var force = false

        func validate() throws {
            switch (rule, symbol) {
            case (nil, nil): throw ValidationError("say what to silence: --rule ID or --symbol SYMBOL")
            case (.some, .some): throw ValidationError("give --rule or --symbol, not both")
            case (.some(let value), nil), (nil, .some(let value)):
                if value.isEmpty { throw ValidationError("--rule and --symbol need a non-empty value") }
            }
            if duration != nil, until != nil { throw ValidationError("give --for or --until, not both") }
            _ = try end(now: Alerts.now())
        }

        func end(now: Timestamp) throws -> Timestamp {
            do {
                if let until { return try SilenceEnd.until(until, now: now, timeZone: TimeZone.current) }
                return try SilenceEnd.after(duration ?? "1h", now: now)
            } catch {
                throw ValidationError(error.description)
            }
        }

        func run() async throws {
            // Whole seconds: silences read back as `…T21:00:00Z`, not `…T21:00:00.216Z`.
            let now = Timestamp(seconds: Alerts.now().milliseconds / 1000)
            let endsAt = try end(now: now)
            let target = rule.map { Silence.Target.rule($0) } ?? .symbol(symbol ?? "")
            let silences = try SilenceCommand.silences(
                await ManageSilences.add(configPath: config.path, target: target, endsAt: endsAt, comment: comment, now: now,
                                         force: force, environment: ProcessInfo.processInfo.environment,
                                         report: StandardOutput.report))
            var output = StandardOutput.output()
            for silence in silences { output.line("added \(SilenceCommand.textLine(silence, now: now))") }
            output.flush()
        }
    }

    /// `silence list [--all] [--format text|json]`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the silences in force.",
            discussion: """
                Lists the silences not yet ended, oldest first (--all: every stored one, ended \
                ones too). JSON Lines: one object per silence with id, rule, symbol (one of them \
                null), starts_at, ends_at, created_at, comment and active.
                """)

        @OptionGroup var config: ConfigOption

        @Flag(help: "Ended silences too.")
        var all = false

        @Option(help: "Output format: text or json (JSON Lines).")
        var format: OutputFormat = .text

        func run() async throws {
            let now = Alerts.now()
            let silences = try SilenceCommand.silences(
                await ManageSilences.list(configPath: config.path, all: all, now: now, report: StandardOutput.report))
            var output = StandardOutput.output()
            if silences.isEmpty, format == .text { output.line(all ? "no silences" : "no silences in force") }
            for silence in silences {
                output.line(format == .json ? SilenceCommand.jsonLine(silence, now: now) : SilenceCommand.textLine(silence, now: now))
            }
            output.flush()
        }
    }

    /// `silence expire ID`.
    struct Expire: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "expire",
            abstract: "End a silence now.",
            discussion: "Alerts fired from now on are delivered again; those silenced meanwhile stay silenced. Exits 1 when no silence has that id.")

        @OptionGroup var config: ConfigOption

        @Argument(help: ArgumentHelp("The silence's id, as silence list shows it.", valueName: "id"))
        var id: String

        func run() async throws {
            let now = Alerts.now()
            let silences = try SilenceCommand.silences(
                await ManageSilences.expire(configPath: config.path, id: id, now: now, report: StandardOutput.report))
            guard let silence = silences.first else { throw StandardOutput.failure("error: no silence has the id '\(id)'") }
            var output = StandardOutput.output()
            output.line("expired \(SilenceCommand.textLine(silence, now: now))")
            output.flush()
        }
    }

    static func silences(_ outcome: ManageSilences.Outcome) throws -> [Silence] {
        switch outcome {
        case .configurationFailed: throw ExitCode(1)
        case .failed(let error): throw StandardOutput.failure("error: \(error)")
        case .silences(let silences): return silences
        }
    }

    /// `s-0123456789ab rule x-crosses-15 until 2024-10-02T23:00:00Z (comment)`; an ended one
    /// says `ended`. One line: control characters in the id, the target or the comment (stored
    /// by an older version or another client) are escaped.
    static func textLine(_ silence: Silence, now: Timestamp) -> String {
        let when = silence.endsAt > now ? "until" : "ended"
        let comment = silence.comment.isEmpty ? "" : " (\(silence.comment))"
        return ControlCharacters.escaped("\(silence.id) \(silence.targetDescription) \(when) \(silence.endsAt.rfc3339)\(comment)")
    }

    static func jsonLine(_ silence: Silence, now: Timestamp) -> String {
        silence.json(now: now)
    }
}
