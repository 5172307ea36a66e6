import Foundation
import PriceWatchConfig

/// The `{ credential = "NAME" }` secrets of a command run outside the service (`check`,
/// `notify-test`, `rules`): from `--credentials-directory`, else `$CREDENTIALS_DIRECTORY`,
/// else, run by root, the files of the installed unit's `LoadCredential=` lines (see
/// `ServiceCredentials`).
public enum ResolveCommandCredentials {
    /// Credentials resolved for one command. Call ``cleanUp()`` when the command is done: a
    /// directory assembled from the unit's credential files is removed.
    public struct Resolved: Sendable {
        let credentials: ServiceCredentials

        /// Removes what resolving created (nothing when a directory was given).
        public func cleanUp() { credentials.cleanUp() }
    }

    /// The credentials to use, and `environment` with `CREDENTIALS_DIRECTORY` set for the
    /// configuration loader.
    public static func resolve(explicitDirectory: String?,
                               environment: [String: String] = ProcessInfo.processInfo.environment)
        -> (credentials: Resolved, environment: [String: String]) {
        let credentials = ServiceCredentials.resolve(explicitDirectory: explicitDirectory, environment: environment,
                                                     isRoot: geteuid() == 0)
        return (Resolved(credentials: credentials), credentials.environmentFor(environment))
    }
}
