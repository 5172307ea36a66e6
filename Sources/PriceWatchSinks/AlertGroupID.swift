import PriceWatchCore

/// The identity of a group of alerts sent as one message (`group_wait`): the webhook's
/// `webhook-id` and the email's `Message-ID`.
///
/// Derived from every member's id, in order: a retried group with the same members keeps it,
/// and a group whose members changed (a late alert, a reload changing `group_wait`) gets a new
/// one, so a receiver that deduplicates on it never drops alerts it has not seen.
enum AlertGroupID {
    /// `group-HASH-COUNT`.
    static func make(_ alerts: [Alert]) -> String { "group-\(hash(alerts))-\(alerts.count)" }

    /// A stable 64-bit FNV-1a hash of the alert ids, in hex.
    static func hash(_ alerts: [Alert]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for alert in alerts {
            for byte in alert.id.utf8 + [0xFF] {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
