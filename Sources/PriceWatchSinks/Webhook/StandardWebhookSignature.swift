import Crypto
import FoundationEssentials
import PriceWatchCore

/// Signs webhook requests per the Standard Webhooks specification
/// (<https://www.standardwebhooks.com>), so receivers verify them with its libraries:
///
/// - `webhook-id`: the alert id (the same on every retry, so receivers deduplicate);
/// - `webhook-timestamp`: the attempt's time in unix seconds;
/// - `webhook-signature`: `v1,` then the base64 HMAC-SHA256 of `id.timestamp.body`, keyed
///   with the secret's bytes: the base64 text after its `whsec_` prefix, decoded.
///
/// Its description never shows the key.
public struct StandardWebhookSignature: Sendable, CustomStringConvertible {
    /// The prefix of a Standard Webhooks secret.
    public static let secretPrefix = "whsec_"

    /// Why a secret is not a Standard Webhooks secret. Messages never contain the secret.
    public enum SecretProblem: Error, Sendable, Hashable, CustomStringConvertible {
        case missingPrefix
        case notBase64
        case emptyKey

        public var description: String {
            switch self {
            case .missingPrefix: "a Standard Webhooks secret starts with 'whsec_', and this one does not"
            case .notBase64: "the part of the secret after 'whsec_' is not valid base64"
            case .emptyKey: "the secret has no key after 'whsec_'"
            }
        }
    }

    private let key: [UInt8]

    /// The signer for a `whsec_…` secret.
    public init(secret: String) throws(SecretProblem) {
        key = try Self.key(fromSecret: secret)
    }

    /// The key bytes of a `whsec_<base64>` secret. Unpadded base64 is accepted, as the
    /// specification's reference libraries accept it.
    public static func key(fromSecret secret: String) throws(SecretProblem) -> [UInt8] {
        guard secret.hasPrefix(secretPrefix) else { throw .missingPrefix }
        var encoded = String(secret.dropFirst(secretPrefix.count))
        guard !encoded.isEmpty else { throw .emptyKey }
        switch encoded.utf8.count % 4 {
        case 2: encoded += "=="
        case 3: encoded += "="
        default: break
        }
        guard let data = Data(base64Encoded: encoded) else { throw .notBase64 }
        guard !data.isEmpty else { throw .emptyKey }
        return Array(data)
    }

    /// `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`.
    public func signature(id: String, timestamp: Int64, body: [UInt8]) -> String {
        var signed = Array("\(id).\(timestamp).".utf8)
        signed += body
        let code = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: key))
        return "v1," + Data(code).base64EncodedString()
    }

    public var description: String { "StandardWebhookSignature(<secret>)" }
}
