import PriceWatchCore
import PriceWatchTOML

/// Reads the main file's `[ingest.NAME]` tables (docs/configuration.md, "Relayed messages"):
/// each an inbound relay route of the HTTP endpoint (`POST /api/ingest/NAME`) and the sinks
/// its messages go to.
extension MainFileReader {
    static let ingestKeys = ["notify", "title"]

    /// The valid routes, in file order. `settings` must already hold the sinks and the main
    /// `notify` (a route without `notify` goes where rules without one go).
    func readIngest(_ root: TableReader, settings: MainSettings) -> [IngestRouteSettings] {
        guard root.has("ingest"),
              let tables = root.tables("ingest", expected: "a table of [ingest.NAME] tables such as [ingest.tradingview]") else { return [] }
        var routes: [IngestRouteSettings] = []
        for (name, values) in tables {
            let path = TOMLKeyPath(keys: "ingest").appending(name)
            guard IngestRouteSettings.knownRoutes.contains(name) else {
                file.error("ingest: expected a route among \(IngestRouteSettings.knownRoutes.joined(separator: ", ")), "
                           + "found \(Wording.quoted(name))", at: path)
                continue
            }
            let reader = TableReader(file: file, path: path, values: values, subject: .table)
            reader.checkUnknownKeys(allowed: Self.ingestKeys)
            let errors = file.errorCount
            var notify: [String]?
            if reader.has("notify") {
                if let written = reader.nameList("notify", kind: "sink") {
                    let before = file.errorCount
                    if settings.sinksReadable {
                        reader.checkDeclared(written, key: "notify", kind: "sink", declared: settings.sinkNames)
                    }
                    if file.errorCount == before { notify = written }
                }
            } else {
                notify = settings.defaultNotify ?? settings.sinkNames
                if notify?.isEmpty ?? true, settings.sinksReadable {
                    reader.missing("missing 'notify' (the sinks relayed messages go to, such as [\"phone\"]); no sinks are defined",
                                   keys: ["notify"])
                }
            }
            let title = reader.nonEmptyString("title", expected: "a title such as \"TradingView alert\"")
            if let title, ControlCharacters.contains(title) {
                reader.error("expected a title on one line, found \(ControlCharacters.quoted(title))", key: "title")
            }
            guard file.errorCount == errors, let notify, !notify.isEmpty else { continue }
            routes.append(IngestRouteSettings(name: name, notify: notify, title: title))
        }
        return routes
    }
}
