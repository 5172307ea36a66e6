import FoundationEssentials
import PriceWatchCore

/// The form of a Standard Webhooks signing secret, checked when the configuration loads:
/// `whsec_` followed by the key in base64 (unpadded base64 is accepted, as the
/// specification's libraries accept it). The webhook sink decodes it again to sign.
enum StandardWebhooksSecret {
    static let prefix = "whsec_"
    static let expected = "expected a Standard Webhooks secret ('whsec_' followed by the key in base64)"

    /// What is wrong with `secret`, or `nil`; the message names where the secret came from
    /// and never contains its value.
    static func problem(with secret: Secret) -> String? {
        let value = secret.value
        guard value.hasPrefix(prefix) else {
            return "\(expected), but the secret from \(secret.origin) does not start with 'whsec_'"
        }
        var encoded = String(value.dropFirst(prefix.count))
        switch encoded.utf8.count % 4 {
        case 2: encoded += "=="
        case 3: encoded += "="
        default: break
        }
        guard let key = Data(base64Encoded: encoded) else {
            return "\(expected), but in the secret from \(secret.origin) the part after 'whsec_' is not valid base64"
        }
        guard !key.isEmpty else {
            return "\(expected), but the secret from \(secret.origin) has no key after 'whsec_'"
        }
        return nil
    }
}
