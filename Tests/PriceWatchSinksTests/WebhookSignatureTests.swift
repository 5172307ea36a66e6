import PriceWatchCore
import PriceWatchSinks
import Testing

/// Standard Webhooks signing against the specification's published example, and secrets
/// checked without showing them.
@Suite struct WebhookSignatureTests {
    /// The example of the Standard Webhooks specification (and of its reference libraries).
    @Test func signsTheSpecificationsExample() throws {
        let signer = try StandardWebhookSignature(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        let signature = signer.signature(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330,
                                         body: Array(#"{"test": 2432232314}"#.utf8))
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test func acceptsUnpaddedBase64AsTheReferenceLibrariesDo() throws {
        // "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" is 24 bytes; "AAEC" padded differently: 3 bytes.
        #expect(try StandardWebhookSignature.key(fromSecret: "whsec_AAECAw") == [0, 1, 2, 3])
        #expect(try StandardWebhookSignature.key(fromSecret: "whsec_AAECAw==") == [0, 1, 2, 3])
        #expect(try StandardWebhookSignature.key(fromSecret: "whsec_AAEC") == [0, 1, 2])
    }

    @Test(arguments: [
        ("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", StandardWebhookSignature.SecretProblem.missingPrefix),
        ("whsec_", .emptyKey),
        ("whsec_not base64!", .notBase64),
        ("whsec_A", .notBase64),
    ])
    func rejectsSecretsThatAreNotStandardWebhooksSecrets(secret: String, problem: StandardWebhookSignature.SecretProblem) {
        #expect(throws: problem) { try StandardWebhookSignature(secret: secret) }
        #expect(!problem.description.contains(secret.dropFirst(6)) || secret.count <= 6)
    }

    @Test func neverDescribesTheKey() throws {
        let signer = try StandardWebhookSignature(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        #expect(!"\(signer)".contains("MfKQ"))
        #expect(!String(reflecting: signer).contains("MfKQ"))
    }
}
