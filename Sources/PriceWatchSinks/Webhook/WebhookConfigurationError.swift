/// Why a webhook sink's settings cannot work (an unusable URL, a header that may not be set,
/// a secret that is not a Standard Webhooks secret). The message names the key and never
/// contains the URL, a header value or the secret.
public struct WebhookConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
