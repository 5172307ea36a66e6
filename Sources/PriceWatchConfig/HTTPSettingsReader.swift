import PriceWatchCore
import PriceWatchTOML

/// Reads the main file's `[http]` table: the daemon's HTTP endpoint (dashboard, metrics,
/// health). Off unless the table is written.
extension MainFileReader {
    static let httpKeys = ["listen", "token", "max_connections"]

    func readHTTP(_ root: TableReader) -> HTTPEndpointSettings? {
        guard let value = root["http"] else { return nil }
        guard case .table(let table) = value else {
            root.error("expected a table ([http] with listen = \"127.0.0.1:8490\"), found \(value.kindDescription)", key: "http")
            return nil
        }
        let reader = root.nested("http", values: table)
        reader.checkUnknownKeys(allowed: Self.httpKeys)
        let errors = file.errorCount
        var settings = HTTPEndpointSettings()
        if let listen = reader.nonEmptyString("listen", expected: "an address and port such as \"127.0.0.1:8490\"") {
            if let parsed = HTTPEndpointSettings.parseListen(listen) {
                settings.host = parsed.host
                settings.port = parsed.port
            } else {
                reader.error("expected an address and port such as \"127.0.0.1:8490\" or \"[::1]:8490\", found \(Wording.quoted(listen))",
                             key: "listen")
            }
        }
        settings.token = SecretResolver(baseDirectory: baseDirectory, environment: environment).resolve("token", in: reader)
        if let maximum = reader.positiveInteger("max_connections") { settings.maximumConnections = maximum }
        if !settings.isLoopback, !reader.has("token"), file.errorCount == errors {
            reader.error("listening on \(settings.host), which is not a loopback address, requires 'token' "
                         + "(a secret as { file = \"PATH\" }, { credential = \"NAME\" } or { env = \"VAR\" })", key: "listen")
        }
        return file.errorCount == errors ? settings : nil
    }
}
