import PriceWatchCore
import PriceWatchCurl
import PriceWatchTestKit
import Testing

@Suite("CurlHTTPTransport TLS", .timeLimit(.minutes(1)))
struct CurlTransportTLSTests {
    let transport = CurlHTTPTransport()

    /// Verification is on: a self-signed certificate (valid for 127.0.0.1) is refused, although
    /// the server would answer `-www` requests with 200 if the client went on.
    @Test func anUntrustedCertificateIsRefused() async throws {
        let server = try await SelfSignedTLSServer()
        let error = await expectFailure(transport, HTTPRequest(url: "https://127.0.0.1:\(server.port)/"))

        #expect(error?.kind == .tls)
        #expect(error?.message.hasPrefix("GET https://127.0.0.1:\(server.port)/: TLS failed") == true, "\(error?.message ?? "")")
        #expect(error?.isRetryable == false)
    }

    @Test func httpsToAPlainHTTPServerIsATLSFailure() async throws {
        let server = try LoopbackHTTPServer { _ in .text("plain") }
        let error = await expectFailure(transport, HTTPRequest(url: "https://127.0.0.1:\(server.port)/"))

        #expect(error?.kind == .tls)
        // libcurl's own text, its acronym as libcurl writes it.
        #expect(error?.message.contains("TLS failed (SSL ") == true, "\(error?.message ?? "")")
    }
}
