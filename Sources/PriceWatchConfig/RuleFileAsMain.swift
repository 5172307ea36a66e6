import PriceWatchTOML

/// A rule file given where the main file is expected (`check --config rules.d/a.toml`): found
/// by its `[[rule]]` tables and none of the main file's keys, and reported as such, with the
/// main file that holds it when there is one beside its directory, instead of as a main file
/// whose every key is unknown.
enum RuleFileAsMain {
    /// Whether `root` is a rule file's: `[[rule]]` tables and no key of a main file.
    static func isRuleFile(_ root: TOMLTable) -> Bool {
        guard case .array? = root["rule"] else { return false }
        return !root.keys.contains(where: MainFileReader.keys.contains)
    }

    /// The error at the top of the file given as `mainFile` (as the user wrote it).
    static func message(mainFile: String) -> String {
        let found = "expected the main file (providers, sinks and 'rules', the directory of the rule files), "
            + "found a rule file ([[rule]] tables)"
        guard let main = mainFileAbove(mainFile) else {
            return found + "; give the main file instead, the one whose 'rules' (default \"rules.d\") names the "
                + "directory of this file"
        }
        return found + "; give the main file instead: '\(main)', whose rules directory holds this file"
    }

    /// `pricewatch.toml` in the directory above the rule file's, as the user would write it,
    /// when that file exists and its `rules` (default `rules.d`) names the rule file or its
    /// directory.
    static func mainFileAbove(_ ruleFile: String) -> String? {
        let directory = ConfigPaths.directory(of: ruleFile)
        guard directory != "/" else { return nil }
        let parent = directory.isEmpty ? ".." : ConfigPaths.directory(of: directory)
        let candidate = ConfigPaths.join(parent, "pricewatch.toml")
        let absolute = ConfigPaths.absolute(candidate)
        guard ConfigPaths.kind(of: absolute) == .file else { return nil }
        let main = ConfigFile.read(absolutePath: absolute, displayPath: candidate, what: "configuration file")
        var rules = MainSettings.defaultRules
        if case .string(let written)? = main.root?["rules"] { rules = written }
        let named = ConfigPaths.absolute(rules, relativeTo: ConfigPaths.directory(of: absolute))
        let ruleFilePath = ConfigPaths.absolute(ruleFile)
        return named == ruleFilePath || named == ConfigPaths.directory(of: ruleFilePath) ? candidate : nil
    }
}
