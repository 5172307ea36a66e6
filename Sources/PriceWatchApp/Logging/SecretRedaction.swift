import PriceWatchCore
import Synchronization

/// The redactor of the configuration the daemon runs now, shared by its log handler and
/// replaced on every successful load or reload (so a secret added by a reload is redacted from
/// then on, and a removed one keeps being redacted until the next reload drops it too).
public final class SecretRedaction: Sendable {
    private let current: Mutex<SecretRedactor>

    /// The secrets of the configuration a command loaded, removed from every line the command
    /// prints: each use case that loads a configuration adds its secrets here.
    public static let commandOutput = SecretRedaction()

    public init(_ redactor: SecretRedactor = SecretRedactor()) {
        current = Mutex(redactor)
    }

    /// The redactor in force.
    public var redactor: SecretRedactor { current.withLock { $0 } }

    /// Replaces the redactor with one for `configuration`, keeping the secrets of the previous
    /// one too: messages about the old configuration may still be on their way.
    public func update(for configuration: Configuration, keepingPrevious: Bool = true) {
        let next = SecretRedactor(configuration)
        current.withLock { $0 = keepingPrevious ? $0.merged(with: next) : next }
    }

    /// `text` without any secret.
    public func redact(_ text: String) -> String { redactor.redact(text) }
}
