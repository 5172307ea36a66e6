/// The samples of a Prometheus exposition text, by series (`name{labels}` as written), and
/// the metric names of each `# TYPE`.
struct MetricsSamples {
    private(set) var values: [String: Double] = [:]
    private(set) var types: [String: String] = [:]

    init(_ text: String) {
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                let parts = line.dropFirst("# TYPE ".count).split(separator: " ")
                if parts.count == 2 { types[String(parts[0])] = String(parts[1]) }
            } else if !line.hasPrefix("#"), let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) {
                values[String(line[..<space])] = value
            }
        }
    }

    subscript(series: String) -> Double? { values[series] }

    /// The metrics whose `# TYPE` is `type`, sorted.
    func names(ofType type: String) -> [String] { types.filter { $0.value == type }.map(\.key).sorted() }

    /// Whether `name` has a sample (with any labels).
    func hasSample(of name: String) -> Bool {
        values.keys.contains { $0 == name || $0.hasPrefix(name + "{") }
    }
}
