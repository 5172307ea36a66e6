import ArgumentParser
import FoundationEssentials
import PriceWatchApp
import PriceWatchCore

/// `pricewatch notify-test SINK`: sends a test alert through one configured sink, directly
/// (not through the outbox), and reports the outcome.
struct NotifyTest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify-test",
        abstract: "Send a test alert through a configured sink and report the outcome.",
        discussion: """
            The alert has rule 'notify-test', symbol 'TEST' and a fresh id; it is sent once, \
            without retries, and is not recorded in the state database. Prints 'sent through \
            KIND/NAME' and exits 0, or prints the error and exits 1 (also for a sink name the \
            configuration does not have).
            """)

    @OptionGroup var config: ConfigOption
    @OptionGroup var credentials: CredentialsDirectoryOption

    @Argument(help: ArgumentHelp("The sink's name: NAME of its [sinks.NAME] table.", valueName: "sink"),
              completion: .custom { words, _, _ in NameCompletion.sinks(words: words) })
    var sink: String

    func run() async throws {
        let (serviceCredentials, environment) = credentials.resolve()
        defer { serviceCredentials.cleanUp() }
        var errors = StandardOutput.error()
        switch await SendTestNotification.send(configPath: config.path, environment: environment,
                                               sink: sink, now: Self.now(), report: StandardOutput.report) {
        case .configurationFailed:
            throw ExitCode(1)
        case .unknownSink(let known):
            errors.line("\(config.path): error: no sink named '\(sink)'; known sinks: \(known.isEmpty ? "(none)" : known.joined(separator: ", "))")
            errors.flush()
            throw ExitCode(1)
        case .failed(let identity, let error):
            errors.line(SubjectErrorLine.text(subject: identity, message: error.message)
                        + (error.isRetryable ? " (a retry may succeed)" : ""))
            errors.flush()
            throw ExitCode(1)
        case .sent(let identity, let alert):
            var output = StandardOutput.output()
            output.line("sent through \(identity) (alert id \(alert.id))")
            output.flush()
        }
    }

    static func now() -> Timestamp {
        Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }
}
