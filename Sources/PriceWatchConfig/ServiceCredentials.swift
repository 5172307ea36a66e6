import Foundation

/// Where `{ credential = "NAME" }` secrets come from when a command (`check`, `notify-test`)
/// runs outside the service: the files the unit's `LoadCredential=` lines hand to the daemon.
///
/// Under systemd, `$CREDENTIALS_DIRECTORY` names a private directory with one file per
/// `LoadCredential=NAME:PATH` line. An operator's shell has no such variable, so without help
/// every configuration naming a credential would fail `pricewatch check`. The choice, in order:
///
/// 1. `--credentials-directory DIR`: `DIR/NAME` for every credential.
/// 2. `$CREDENTIALS_DIRECTORY` when set (the command runs inside the unit, or under
///    `systemd-run -p LoadCredential=...`).
/// 3. Run by root: the installed `pricewatch.service` (the first found on the unit search path,
///    `$SYSTEMD_UNIT_PATH` when set, with its `pricewatch.service.d/*.conf` drop-ins): when all
///    its `LoadCredential=NAME:PATH` lines are `DIR/NAME` in one `DIR`, that directory;
///    otherwise a private directory (mode 0700, removed afterwards) of links `NAME -> PATH`.
///    Without an installed unit, ``defaultDirectory`` when it exists.
/// 4. Otherwise nothing: a credential fails with its own message (the files are root's).
public struct ServiceCredentials: Sendable {
    /// `/etc/pricewatch/credentials`, where the shipped unit loads its credentials from.
    public static let defaultDirectory = "/etc/pricewatch/credentials"
    /// Where systemd looks for system units, most specific first.
    public static let unitSearchPath = ["/etc/systemd/system", "/run/systemd/system", "/usr/local/lib/systemd/system",
                                        "/lib/systemd/system", "/usr/lib/systemd/system"]
    public static let unitName = "pricewatch.service"

    /// The directory to use as `CREDENTIALS_DIRECTORY`, if any.
    public let directory: String?
    /// Where it came from, for messages: `--credentials-directory`, the unit's path, ...
    public let origin: String?
    /// A private directory of links this value made; ``cleanUp()`` removes it.
    private let temporary: String?

    /// `base` with `CREDENTIALS_DIRECTORY` set to ``directory`` when there is one.
    public func environmentFor(_ base: [String: String]) -> [String: String] {
        var result = base
        if let directory { result["CREDENTIALS_DIRECTORY"] = directory }
        return result
    }

    /// Removes the private directory of links, if one was made.
    public func cleanUp() {
        if let temporary { try? FileManager.default.removeItem(atPath: temporary) }
    }

    /// Chooses the credentials directory for a command run with `environment`.
    public static func resolve(explicitDirectory: String?, environment: [String: String], isRoot: Bool) -> ServiceCredentials {
        if let explicitDirectory {
            return ServiceCredentials(directory: explicitDirectory, origin: "--credentials-directory", temporary: nil)
        }
        if let existing = environment["CREDENTIALS_DIRECTORY"], !existing.isEmpty {
            return ServiceCredentials(directory: existing, origin: "$CREDENTIALS_DIRECTORY", temporary: nil)
        }
        guard isRoot else { return ServiceCredentials(directory: nil, origin: nil, temporary: nil) }
        let searchPath = environment["SYSTEMD_UNIT_PATH"].map { $0.split(separator: ":").map(String.init) } ?? unitSearchPath
        guard let unit = searchPath.map({ $0 + "/" + unitName }).first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: defaultDirectory, isDirectory: &isDirectory) && isDirectory.boolValue
            return ServiceCredentials(directory: exists ? defaultDirectory : nil, origin: exists ? defaultDirectory : nil, temporary: nil)
        }
        var text = (try? String(contentsOfFile: unit, encoding: .utf8)) ?? ""
        for directory in searchPath {
            let dropIns = directory + "/" + unitName + ".d"
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: dropIns)) ?? []).filter { $0.hasSuffix(".conf") }.sorted()
            for name in names { text += "\n" + ((try? String(contentsOfFile: dropIns + "/" + name, encoding: .utf8)) ?? "") }
        }
        let credentials = loadCredentials(inUnit: text)
        if let shared = commonDirectory(credentials) {
            return ServiceCredentials(directory: shared, origin: unit, temporary: nil)
        }
        guard !credentials.isEmpty else { return ServiceCredentials(directory: nil, origin: nil, temporary: nil) }
        let links = FileManager.default.temporaryDirectory.path + "/pricewatch-credentials.\(ProcessInfo.processInfo.processIdentifier)"
        do {
            try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
            for credential in credentials {
                try FileManager.default.createSymbolicLink(atPath: links + "/" + credential.name, withDestinationPath: credential.path)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: links)
            return ServiceCredentials(directory: nil, origin: nil, temporary: nil)
        }
        return ServiceCredentials(directory: links, origin: unit, temporary: links)
    }

    /// One `LoadCredential=NAME:PATH` line.
    public struct Credential: Sendable, Hashable {
        public var name: String
        public var path: String
    }

    /// The `LoadCredential=NAME:PATH` lines of a unit's text (with its drop-ins appended), as
    /// systemd reads them: the last line for a name wins, an empty `LoadCredential=` clears
    /// the list, and lines without an absolute path (credentials from the system's credential
    /// store) are left out.
    public static func loadCredentials(inUnit text: String) -> [Credential] {
        var result: [Credential] = []
        var section = ""
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") { section = line; continue }
            guard section == "[Service]", !line.hasPrefix("#"), !line.hasPrefix(";"),
                  let equals = line.firstIndex(of: "=") else { continue }
            guard line[..<equals].trimmingCharacters(in: .whitespaces) == "LoadCredential" else { continue }
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.isEmpty { result.removeAll(); continue }
            guard let colon = value.firstIndex(of: ":") else { continue }
            let name = String(value[..<colon]), path = String(value[value.index(after: colon)...])
            guard !name.isEmpty, path.hasPrefix("/") else { continue }
            result.removeAll { $0.name == name }
            result.append(Credential(name: name, path: path))
        }
        return result
    }

    /// The one directory every credential is `DIRECTORY/NAME` of, if there is one.
    public static func commonDirectory(_ credentials: [Credential]) -> String? {
        guard let first = credentials.first else { return nil }
        let directory = ConfigPaths.directory(of: first.path)
        let uniform = credentials.allSatisfy { $0.path == ConfigPaths.join(directory, $0.name) && ConfigPaths.directory(of: $0.path) == directory }
        return uniform ? directory : nil
    }
}
