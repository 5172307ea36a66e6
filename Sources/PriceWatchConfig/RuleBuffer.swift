import PriceWatchCore

/// The finished rules of one rule file, built on the thread that reads the file and then
/// moved, not copied, into the one array of every file's rules (``join(_:)``).
///
/// Copying 100,000 rules from the files' arrays into one, then releasing the files' copies,
/// retained and released every string and array of every rule once more, on one thread
/// after the reading threads were done. Moving is a copy of the rules' bytes.
///
/// A reference, so the reader's callback can add to it; used by one thread at a time.
final class RuleBuffer {
    private let storage: UnsafeMutablePointer<Rule>
    /// How many rules it holds.
    private(set) var count = 0
    /// How many it can hold: the file's number of `[[rule]]` tables.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        storage = .allocate(capacity: max(capacity, 1))
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// Adds `rule`; at most ``capacity`` rules (one per table) are ever added.
    func append(_ rule: consuming Rule) {
        precondition(count < capacity, "a rule file gave more rules than it has [[rule]] tables")
        (storage + count).initialize(to: rule)
        count += 1
    }

    /// The rules of one file: read now (in a buffer, to be moved), or kept from an earlier
    /// load (``RuleFileCache``, to be copied).
    enum FileRules {
        case read(RuleBuffer)
        case kept(ArraySlice<Rule>)

        var count: Int {
            switch self {
            case .read(let buffer): buffer.count
            case .kept(let rules): rules.count
            }
        }
    }

    /// Every rule of `files`, in order: moved out of the buffers (which are left empty), copied
    /// from the kept rules.
    static func join(_ files: [FileRules]) -> [Rule] {
        let total = files.reduce(0) { $0 + $1.count }
        return Array(unsafeUninitializedCapacity: total) { destination, initialized in
            for file in files {
                let count = file.count
                guard count > 0, let base = destination.baseAddress else { continue }
                switch file {
                case .read(let buffer):
                    (base + initialized).moveInitialize(from: buffer.storage, count: buffer.count)
                    buffer.count = 0
                case .kept(let rules):
                    rules.withUnsafeBufferPointer { kept in
                        if let source = kept.baseAddress { (base + initialized).initialize(from: source, count: kept.count) }
                    }
                }
                initialized += count
            }
        }
    }
}
