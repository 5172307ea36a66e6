import Logging
import PriceWatchCore

/// A `LogHandler` in front of the daemon's real one (journal or standard error) that makes
/// every entry safe to print: each configured secret is redacted (``SecretRedaction``) and
/// each control character escaped (``ControlCharacters``), in the message, every string
/// metadata value and the attached error, whatever path the text came through (a provider's
/// error body, a sink's answer, a transport message).
///
/// The one place log text passes through, so no provider or sink needs to remember it.
public struct SanitizingLogHandler: LogHandler {
    public var upstream: any LogHandler
    public let redaction: SecretRedaction

    public init(wrapping upstream: any LogHandler, redaction: SecretRedaction) {
        self.upstream = upstream
        self.redaction = redaction
    }

    public var logLevel: Logger.Level {
        get { upstream.logLevel }
        set { upstream.logLevel = newValue }
    }

    public var metadata: Logger.Metadata {
        get { upstream.metadata }
        set { upstream.metadata = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { upstream.metadataProvider }
        set { upstream.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { upstream[metadataKey: key] }
        set { upstream[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        let redactor = redaction.redactor
        var event = event
        event.message = Logger.Message(stringLiteral: Self.clean(event.message.description, redactor))
        event.metadata = event.metadata.map { Self.clean($0, redactor) }
        if let error = event.error {
            event.error = SanitizedError(description: Self.clean("\(error)", redactor))
        }
        upstream.log(event: event)
    }

    static func clean(_ text: String, _ redactor: SecretRedactor) -> String {
        ControlCharacters.escaped(redactor.redact(text))
    }

    static func clean(_ metadata: Logger.Metadata, _ redactor: SecretRedactor) -> Logger.Metadata {
        metadata.mapValues { clean($0, redactor) }
    }

    static func clean(_ value: Logger.MetadataValue, _ redactor: SecretRedactor) -> Logger.MetadataValue {
        switch value {
        case .string(let text): .string(clean(text, redactor))
        case .stringConvertible(let convertible): .string(clean(convertible.description, redactor))
        case .array(let values): .array(values.map { clean($0, redactor) })
        case .dictionary(let dictionary): .dictionary(clean(dictionary, redactor))
        }
    }
}

/// An error's text after sanitizing, standing in for the error in a log entry.
struct SanitizedError: Error, CustomStringConvertible {
    let description: String
}
