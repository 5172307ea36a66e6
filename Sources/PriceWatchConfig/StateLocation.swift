import PriceWatchCore

/// Where a main file keeps the state database, and the types of its sinks, read without the
/// rest of the configuration: for commands that only read the database (`pricewatch alerts`),
/// which must work where the daemon's secrets are not available (an operator's shell).
public struct StateLocation: Sendable, Hashable {
    /// The database, absolute (`state`, or its default).
    public var statePath: String
    /// `kind/name` of each `[sinks.NAME]` whose `type` is a string, by name.
    public var sinkIdentities: [String: String]

    public init(statePath: String, sinkIdentities: [String: String]) {
        self.statePath = statePath
        self.sinkIdentities = sinkIdentities
    }
}

extension ConfigurationLoader {
    /// Reads `state` and the sink types of the main file; its other keys, its rule files and
    /// its secrets are not read or checked. Returns nil, with the diagnostics, when the file
    /// cannot be read or `state` is not a path.
    ///
    /// With `schemas`, a sink written as a plain-string Apprise-style URL without `type`
    /// (`url = "tgram://…"`) gets the type its scheme names; one whose URL is a secret keeps
    /// no identity (its secret is not read here).
    public static func stateLocation(mainFile: String, schemas: AdapterSchemas? = nil) -> (location: StateLocation?, diagnostics: [Diagnostic]) {
        let directory = ConfigPaths.directory(of: mainFile)
        let baseDirectory = ConfigPaths.absolute(directory.isEmpty ? "." : directory)
        let main = ConfigFile.read(absolutePath: ConfigPaths.absolute(mainFile), displayPath: mainFile,
                                   what: "configuration file")
        guard let root = main.root else { return (nil, main.diagnostics) }
        let reader = TableReader(file: main, path: .root, values: root, subject: .root)
        var statePath = MainSettings.defaultState
        if reader.has("state") {
            guard let state = reader.nonEmptyString("state", expected: "a path") else { return (nil, main.diagnostics) }
            statePath = ConfigPaths.absolute(state, relativeTo: baseDirectory)
        }
        var identities: [String: String] = [:]
        if case .table(let sinks)? = root["sinks"] {
            for entry in sinks.entries {
                guard case .table(let table) = entry.value else { continue }
                if case .string(let type)? = table["type"] {
                    identities[entry.key] = "\(type)/\(entry.key)"
                } else if case .string(let url)? = table["url"], let scheme = try? ShorthandURL(url).scheme,
                          let type = schemas?.sinks.first(where: { $0.shorthand?.schemes.contains(scheme) == true })?.type {
                    identities[entry.key] = "\(type)/\(entry.key)"
                }
            }
        }
        return (StateLocation(statePath: statePath, sinkIdentities: identities), main.diagnostics)
    }
}
