import ArgumentParser
import PriceWatchApp

/// `--credentials-directory DIR`, for the commands that resolve secrets outside the service
/// (`check`, `notify-test`): see ``ResolveCommandCredentials`` for where credentials come
/// from without it.
struct CredentialsDirectoryOption: ParsableArguments {
    @Option(name: .long,
            help: ArgumentHelp("""
                Read { credential = "NAME" } secrets from DIR/NAME. Default: $CREDENTIALS_DIRECTORY; \
                else, run by root, the files of the installed unit's LoadCredential= lines \
                (/etc/pricewatch/credentials for the shipped unit).
                """, valueName: "dir"),
            completion: .directory)
    var credentialsDirectory: String?

    /// The credentials to use, and this process's environment with `CREDENTIALS_DIRECTORY` set.
    func resolve() -> (credentials: ResolveCommandCredentials.Resolved, environment: [String: String]) {
        ResolveCommandCredentials.resolve(explicitDirectory: credentialsDirectory)
    }
}
