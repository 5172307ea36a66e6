import PriceWatchCore

/// The names a configuration defines, for shell completion: read from the main file and its
/// rule files without secrets, portfolios or checks, so that they come quickly, also where
/// the daemon's secrets are not readable (an operator's shell), and from a file with errors
/// (what can be made out).
public struct ConfigurationNames: Sendable, Hashable {
    /// `[sinks.NAME]`, sorted.
    public var sinks: [String]
    /// `[[digest]]` names, in file order.
    public var digests: [String]
    /// Rule ids of the rule files, sorted, each once.
    public var rules: [String]

    public init(sinks: [String] = [], digests: [String] = [], rules: [String] = []) {
        self.sinks = sinks
        self.digests = digests
        self.rules = rules
    }
}

extension ConfigurationLoader {
    /// The names of the configuration at `mainFile`; empty lists for what cannot be read.
    public static func names(mainFile: String) -> ConfigurationNames {
        let directory = ConfigPaths.directory(of: mainFile)
        let baseDirectory = ConfigPaths.absolute(directory.isEmpty ? "." : directory)
        let main = ConfigFile.read(absolutePath: ConfigPaths.absolute(mainFile), displayPath: mainFile,
                                   what: "configuration file")
        let root = main.root ?? main.partialRoot
        var names = ConfigurationNames()
        if case .table(let sinks)? = root["sinks"] { names.sinks = sinks.keys.sorted() }
        if case .array(let digests)? = root["digest"] {
            names.digests = digests.elements.compactMap { element in
                guard case .string(let name)? = element.table?["name"] else { return nil }
                return name
            }
        }
        var rulesPath = MainSettings.defaultRules
        if case .string(let written)? = root["rules"], !written.isEmpty { rulesPath = written }
        let absolute = ConfigPaths.absolute(rulesPath, relativeTo: baseDirectory)
        if let set = RuleSet.read(displayPath: rulesPath, absolutePath: absolute, finish: { $0.rule }) {
            names.rules = Array(Set(set.rules.map(\.id))).sorted()
        }
        return names
    }
}
