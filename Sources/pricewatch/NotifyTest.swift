import ArgumentParser
import Foundation
import PriceWatchConfig
import PriceWatchCore
import PriceWatchEngine

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
              completion: .custom { words, _, _ in SinkNameCompletion.names(words: words) })
    var sink: String

    func run() async throws {
        let (serviceCredentials, environment) = credentials.resolve()
        defer { serviceCredentials.cleanUp() }
        let (loaded, diagnostics) = ConfigurationLoader.load(mainFile: config.path, environment: environment)
        var errors = StandardOutput.error()
        guard let configuration = loaded, !diagnostics.containsErrors else {
            StandardOutput.report(diagnostics)
            throw ExitCode(1)
        }
        guard let settings = configuration.sink(named: sink) else {
            let known = configuration.sinks.map(\.name)
            errors.line("\(config.path): error: no sink named '\(sink)'; known sinks: \(known.isEmpty ? "(none)" : known.joined(separator: ", "))")
            errors.flush()
            throw ExitCode(1)
        }
        // Build this sink only: another sink's problem is not this test's business.
        var single = configuration
        single.sinks = [settings]
        let transports = NetworkTransports()
        let (sinks, sinkDiagnostics) = AdapterFactory.sinks(for: single, transport: transports.http, mailTransport: transports.mail)
        StandardOutput.report(sinkDiagnostics)
        guard let target = sinks[settings.name], !sinkDiagnostics.containsErrors else { throw ExitCode(1) }

        let alert = Self.testAlert(through: target.identity, now: Self.now())
        do {
            try await target.deliver(alert)
        } catch {
            errors.line("\(target.identity): error: \(error.message)\(error.isRetryable ? " (a retry may succeed)" : "")")
            errors.flush()
            throw ExitCode(1)
        }
        var output = StandardOutput.output()
        output.line("sent through \(target.identity) (alert id \(alert.id))")
        output.flush()
    }

    static func now() -> Timestamp {
        Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// A clearly labelled alert with a fresh id (the id of rule `notify-test` at `now`).
    static func testAlert(through identity: String, now: Timestamp) -> Alert {
        Alert(id: AlertID.make(rule: "notify-test", fingerprint: identity, symbol: "TEST", time: now),
              rule: "notify-test", symbol: "TEST", provider: nil, condition: "test notification",
              price: ExactDecimal(scaled: 100_000_000), currency: nil, time: now, base: nil, change: nil,
              direction: nil,
              message: "pricewatch test notification through \(identity): if you can read this, the sink works")
    }
}
