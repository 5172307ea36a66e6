import ArgumentParser
import FoundationEssentials
import PriceWatchApp
import PriceWatchCore
import PriceWatchPresentation

/// `pricewatch digest NAME [--send] [--due TIME] [--format text|html|json]`: a `[[digest]]`
/// made now from the state database, printed, or queued for its sinks.
struct DigestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "digest",
        abstract: "Preview a digest, or send it now.",
        discussion: """
            Makes the digest NAME (a [[digest]] of the main file) from the state database: the \
            period before --due (default: now, to the minute) with its top movers, alerts and \
            markets. By default it is printed (--preview) as text, html or json, and nothing is \
            sent. --send queues it in the outbox for the digest's sinks instead; the running \
            daemon delivers it at its dispatcher's next pass (within seconds). A digest has one \
            id per name and due time: sending the same one twice queues it once (docs/digests.md).
            """)

    enum DigestFormat: String, ExpressibleByArgument, CaseIterable {
        case text, html, json
    }

    @OptionGroup var config: ConfigOption

    @Argument(help: ArgumentHelp("The digest's name (its [[digest]] name).", valueName: "name"),
              completion: .custom { words, _, _ in NameCompletion.digests(words: words) })
    var name: String

    @Flag(help: "Print the digest without sending it (the default).")
    var preview = false

    @Flag(help: "Queue the digest for its sinks now.")
    var send = false

    @Option(help: ArgumentHelp("The due time the digest is made for, RFC 3339 (default: now, to the minute).", valueName: "time"))
    var due: String?

    @Option(help: "Preview format: text, html (the email's HTML part) or json.")
    var format: DigestFormat = .text

    // Only for tests and demos: the instant taken as now (RFC 3339). Documented in docs/digests.md.
    @Option(help: .hidden)
    var now: String?

    func validate() throws {
        if preview && send { throw ValidationError("--preview and --send exclude each other") }
        if let due, Timestamp(parsing: due) == nil { throw ValidationError("--due: expected an RFC 3339 time, found '\(due)'") }
        if let now, Timestamp(parsing: now) == nil { throw ValidationError("--now: expected an RFC 3339 time, found '\(now)'") }
    }

    func run() async throws {
        let instant = now.flatMap(Timestamp.init(parsing:)) ?? Alerts.now()
        let dueTime = due.flatMap(Timestamp.init(parsing:)) ?? Timestamp(milliseconds: instant.milliseconds - instant.milliseconds % 60_000)
        let outcome = await MakeDigest.run(configPath: config.path, environment: ProcessInfo.processInfo.environment, name: name,
                                           due: dueTime, send: send, report: StandardOutput.report)
        var output = StandardOutput.output()
        switch outcome {
        case .configurationFailed:
            throw ExitCode(1)
        case .unknownDigest(let available):
            let known = available.isEmpty ? "the main file has no [[digest]]" : "digests: " + available.joined(separator: ", ")
            throw StandardOutput.failure("error: no digest named '\(name)'; \(known)")
        case .failed(let message):
            throw StandardOutput.failure("error: \(message)")
        case .made(let digest, let id, let sinks, let queued):
            if send {
                output.line(queued ? "queued digest \(name) due \(dueTime.rfc3339) for \(sinks.joined(separator: ", ")) (\(id))"
                                   : "digest \(name) due \(dueTime.rfc3339) was already queued (\(id)); nothing added")
                output.flush()
                return
            }
            switch format {
            case .text: output.line(DigestNotification(digest).message().text)
            case .html: output.line(DigestNotification(digest).message().html ?? "")
            case .json: output.line(digest.json())
            }
            output.flush()
        }
    }
}
