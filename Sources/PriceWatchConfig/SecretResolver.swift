import FoundationEssentials
import PriceWatchCore
import PriceWatchTOML

/// Resolves a secret written as `{ file = "PATH" }`, `{ credential = "NAME" }` (read from
/// `$CREDENTIALS_DIRECTORY/NAME`, as systemd's `LoadCredential=` provides) or
/// `{ env = "VAR" }` to its value, when the configuration loads.
///
/// No message it reports contains a secret: not the value read, and not any string written
/// where the table was expected (which is likely the secret pasted in by mistake).
struct SecretResolver {
    /// The main file's directory (absolute), for relative `file` paths.
    let baseDirectory: String
    let environment: [String: String]

    static let sources = ["file", "credential", "env"]
    static let expectedForm = "a secret as { file = \"PATH\" }, { credential = \"NAME\" } or { env = \"VAR\" }"

    /// Resolves the secret at `key` of `reader`; `nil` when absent or wrong (reported).
    func resolve(_ key: String, in reader: TableReader) -> Secret? {
        guard let value = reader[key] else { return nil }
        guard case .table(let table) = value else {
            reader.error("expected \(Self.expectedForm), found \(value.kindDescription)", key: key)
            return nil
        }
        let secretPath = reader.path.appending(key)
        let written = table.keys
        for name in written where !Self.sources.contains(name) {
            var message = "unknown secret source '\(name)'"
            if let suggestion = Suggestion.closest(to: name, among: Self.sources) {
                message += "; did you mean '\(suggestion)'?"
            }
            reader.error(message + " (expected \(Self.expectedForm))", key: key, at: secretPath.appending(name))
        }
        let given = written.filter(Self.sources.contains)
        guard given.count == 1, let source = given.first else {
            if given.count > 1 {
                reader.error("expected exactly one of 'file', 'credential' or 'env', found "
                             + given.map { "'\($0)'" }.joined(separator: " and "), key: key)
            } else if written.isEmpty {
                reader.error("expected \(Self.expectedForm), found an empty table", key: key)
            }
            return nil
        }
        guard case .string(let name)? = table[source] else {
            reader.error("expected a string, found \(table[source]?.kindDescription ?? "nothing")",
                         key: key, at: secretPath.appending(source))
            return nil
        }
        func fail(_ message: String) -> Secret? {
            reader.error(message, key: key, at: secretPath.appending(source))
            return nil
        }
        switch source {
        case "env":
            guard Self.isEnvironmentName(name) else {
                return fail("env: expected the name of an environment variable (letters, digits and '_', not starting with a digit), found a string that is not one")
            }
            guard let text = environment[name] else { return fail("environment variable '\(name)' is not set") }
            let secret = Self.trimmingTrailingNewlines(text)
            guard !secret.isEmpty else { return fail("environment variable '\(name)' is empty") }
            return Secret(value: secret, origin: "env \(name)")
        case "credential":
            guard Self.isCredentialName(name) else {
                return fail("credential: expected a credential name (not empty, without '/' or spaces), found a string that is not one")
            }
            guard let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty else {
                return fail("credential '\(name)': $CREDENTIALS_DIRECTORY is not set "
                            + "(systemd sets it for a unit with LoadCredential=\(name):PATH)")
            }
            let file = ConfigPaths.join(directory, name)
            return readSecretFile(file, what: "credential '\(name)' (\(file))", origin: "credential \(name)", fail: fail)
        default:
            guard !name.isEmpty else { return fail("file: expected a path, found an empty string") }
            let file = ConfigPaths.absolute(name, relativeTo: baseDirectory)
            let secret = readSecretFile(file, what: "secret file '\(file)'", origin: "file \(file)", fail: fail)
            if secret != nil, let warning = SecretFileMode.warning(path: file) {
                reader.file.warning("\(reader.name(key)): \(warning)", at: secretPath.appending(source))
            }
            return secret
        }
    }

    private func readSecretFile(_ path: String, what: String, origin: String,
                                fail: (String) -> Secret?) -> Secret? {
        if let reason = ConfigPaths.unreadableReason(path) { return fail("cannot read \(what): \(reason)") }
        guard let data = FileManager.default.contents(atPath: path) else { return fail("cannot read \(what)") }
        guard let text = String(data: data, encoding: .utf8) else { return fail("\(what) is not UTF-8 text") }
        let secret = Self.trimmingTrailingNewlines(text)
        guard !secret.isEmpty else { return fail("\(what) is empty") }
        return Secret(value: secret, origin: origin)
    }

    static func trimmingTrailingNewlines(_ text: String) -> String {
        var result = Substring(text)
        while let last = result.last, last == "\n" || last == "\r\n" || last == "\r" { result = result.dropLast() }
        return String(result)
    }

    static func isEnvironmentName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
        }
    }

    static func isCredentialName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".."
            && !name.unicodeScalars.contains { $0 == "/" || $0.properties.isWhitespace || $0.value < 0x20 }
    }
}
