import ArgumentParser
import Foundation
import Logging
import PriceWatchEngine

/// `pricewatch run`: the daemon, in the foreground.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the daemon in the foreground.",
        discussion: "SIGTERM or SIGINT stop it gracefully; SIGHUP reloads the configuration. Exits 78 when the configuration is invalid.")

    @OptionGroup var config: ConfigOption

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    func run() async throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "pricewatch")
        let status = await Daemon.run(configPath: config.path, environment: ProcessInfo.processInfo.environment, logger: logger)
        if status != 0 { throw ExitCode(status) }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
