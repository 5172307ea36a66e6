/// Where a value sits in a TOML document: table keys, and indexes into arrays
/// (`providers.yahoo.interval`, `rule[2].above`).
///
/// Readers name what they report about with it; `ConfigFile.position(of:)` walks the parsed
/// document along it to find the line and column.
struct TOMLKeyPath: Hashable, Sendable, CustomStringConvertible {
    /// One step of a path.
    enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    private(set) var components: [Component]

    init(_ components: [Component] = []) { self.components = components }

    /// A path of keys only: `TOMLKeyPath(keys: "providers", "yahoo")`.
    init(keys: String...) { self.components = keys.map(Component.key) }

    static let root = TOMLKeyPath()

    var isEmpty: Bool { components.isEmpty }

    func appending(_ key: String) -> TOMLKeyPath { appending(.key(key)) }

    func appending(_ keys: [String]) -> TOMLKeyPath { TOMLKeyPath(components + keys.map(Component.key)) }

    func appending(index: Int) -> TOMLKeyPath { appending(.index(index)) }

    /// One allocation, where `components + [component]` made two (every rule has a path).
    private func appending(_ component: Component) -> TOMLKeyPath {
        var extended: [Component] = []
        extended.reserveCapacity(components.count + 1)
        extended.append(contentsOf: components)
        extended.append(component)
        return TOMLKeyPath(extended)
    }

    /// The path without its last component; `nil` for the root.
    var parent: TOMLKeyPath? { isEmpty ? nil : TOMLKeyPath(Array(components.dropLast())) }

    /// Every non-empty prefix, shortest first, ending with the path itself.
    var prefixes: [TOMLKeyPath] {
        components.indices.map { TOMLKeyPath(Array(components[...$0])) }
    }

    /// The path as TOML would write it: `providers.yahoo.interval`, `rule[2].above`; keys that
    /// are not bare keys are quoted (`providers."my feed"`).
    var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += Self.quotedIfNeeded(key)
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// A key as TOML writes it: bare when it can be, else a basic string.
    static func quotedIfNeeded(_ key: String) -> String {
        let isBare = !key.isEmpty && key.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
        }
        return isBare ? key : Wording.quoted(key)
    }
}
