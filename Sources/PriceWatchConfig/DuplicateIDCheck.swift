import PriceWatchTOML

/// Finds rule ids used more than once across rule files, file after file in the files'
/// order: each id used again is reported at its second use, naming where it was first defined.
struct DuplicateIDCheck {
    /// A rule with a written id.
    struct Mark {
        let id: String
        /// The position of its `id` key.
        let position: TOMLPosition?
    }

    /// Where each id was first defined: its file's index in ``files`` and its `id` key's place.
    private var first: [String: (file: Int32, position: TOMLPosition?)] = [:]
    private var files: [ConfigFile] = []

    /// Makes room for `count` ids at once: growing one doubling at a time rehashes every id
    /// seen so far each time.
    mutating func reserveCapacity(_ count: Int) { first.reserveCapacity(count) }

    /// Checks the ids of the next file (`marks`, in file order), reporting each repeat to `file`.
    mutating func check(_ marks: [Mark], of file: ConfigFile) {
        let fileIndex = Int32(truncatingIfNeeded: files.count)
        files.append(file)
        for mark in marks {
            let id = mark.id, position = mark.position
            // One lookup for the usual case, an id not seen before; a repeat puts the first back.
            guard let original = first.updateValue((fileIndex, position), forKey: id) else { continue }
            first[id] = original
            let location = files[Int(original.file)].location(at: original.position)
            // A rule with a written id is labelled by it (``RuleReader``).
            file.error("rule '\(id)': duplicate id; first defined at \(location)", atPosition: position)
        }
    }
}
