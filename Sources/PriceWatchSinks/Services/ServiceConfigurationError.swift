/// Why the settings of a Telegram, Pushover, Gotify or Matrix sink cannot work (an unusable
/// service address, an empty token). The message names the key and never contains a secret.
public struct ServiceConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
