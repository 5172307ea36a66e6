/// Stable ids for notifications other than alerts (alerts use ``AlertID``): a 128-bit FNV-1a
/// hash of the kind and the parts that identify one notification (a digest's name and due
/// time, say), UUID-shaped like alert ids. The same parts always give the same id.
public enum NotificationID {
    public static func make(kind: NotificationKind, parts: [String]) -> String {
        var hash = FNV1a128()
        hash.combine(kind.rawValue)
        for part in parts { hash.combine(part) }
        var hex = String(hash.value, radix: 16)
        hex = String(repeating: "0", count: 32 - hex.count) + hex
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }
}
