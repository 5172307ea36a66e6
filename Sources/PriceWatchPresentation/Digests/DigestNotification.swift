import PriceWatchCore

/// A ``Digest`` as a notification of kind `digest`: its title, text, HTML, chart attachments
/// and JSON (`docs/digests.md`).
public struct DigestNotification: NotificationContent {
    public static let kind = NotificationKind.digest

    public let digest: Digest

    public init(_ digest: Digest) {
        self.digest = digest
    }

    public func message() -> NotificationMessage {
        let rendering = DigestRendering(digest: digest)
        return NotificationMessage(title: rendering.title, text: rendering.text, html: rendering.html,
                                   attachments: digest.charts.map(\.attachment), sections: rendering.sections, data: digest.json())
    }
}
