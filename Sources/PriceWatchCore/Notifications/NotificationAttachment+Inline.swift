extension NotificationAttachment {
    /// The attachment's `Content-ID` (without angle brackets): its file name at `pricewatch`.
    public var contentID: String { filename + "@pricewatch" }

    /// What HTML writes to show the attachment inline (`<img src="cid:chart-AAPL.png@pricewatch">`).
    /// An email carries the attachments its HTML refers to this way as inline parts of a
    /// `multipart/related` body; the others stay attachments.
    public var inlineReference: String { "cid:" + contentID }
}
