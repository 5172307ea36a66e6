import ArgumentParser
import FoundationEssentials
import Logging
import PriceWatchApp

/// `pricewatch run`: the daemon, in the foreground.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon in the foreground.",
        discussion: """
            SIGTERM or SIGINT stop it gracefully; SIGHUP reloads the configuration. Exits 78 when the configuration is invalid, 65 when the state database is unusable (damaged, emptied, or from a newer version). \
            Under systemd (Type=notify) it reports READY, RELOADING, STOPPING and STATUS, and pings the watchdog while polling \
            makes progress.
            """)

    @OptionGroup var config: ConfigOption

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    @Option(help: "Where logs go: journal (structured fields), stderr (plain lines), or auto (the journal when standard error is the journal, as under systemd).")
    var logTarget: LogTarget = .auto

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        LoggingSystem.bootstrap(logTarget.handlerFactory(level: logLevel, environment: environment))
        let logger = Logger(label: "pricewatch")
        let status = await Daemon.run(configPath: config.path, environment: environment, logger: logger)
        if status != 0 { throw ExitCode(status) }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
extension LogTarget: ExpressibleByArgument {}
