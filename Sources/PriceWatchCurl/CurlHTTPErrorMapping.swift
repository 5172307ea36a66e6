#if canImport(Glibc)
import Glibc
#endif
import CCurl
import PriceWatchCore

/// Maps a failed libcurl transfer to the port's ``HTTPTransportError/Kind`` and a short,
/// lowercase reason in our words (libcurl's error buffer is not shown: it can echo the URL).
enum CurlHTTPErrorMapping {
    struct Failure {
        var kind: HTTPTransportError.Kind
        var reason: String
    }

    /// - Parameters:
    ///   - osErrno: `CURLINFO_OS_ERRNO`, telling a refused connection from other connect failures.
    ///   - exceededLimit: whether the write callback aborted because the body grew over the cap.
    static func failure(for code: CURLcode, osErrno: Int, exceededLimit: Bool, limit: Int,
                        timeout: Duration) -> Failure {
        switch code {
        case CURLE_WRITE_ERROR where exceededLimit, CURLE_FILESIZE_EXCEEDED:
            return Failure(kind: .responseTooLarge, reason: "response body larger than \(limit) bytes")
        case CURLE_OPERATION_TIMEDOUT:
            return Failure(kind: .timedOut, reason: "no complete response within \(describe(timeout))")
        case CURLE_COULDNT_RESOLVE_HOST:
            return Failure(kind: .connectionFailed, reason: "could not resolve host")
        case CURLE_COULDNT_RESOLVE_PROXY:
            return Failure(kind: .connectionFailed, reason: "could not resolve the proxy")
        case CURLE_COULDNT_CONNECT:
            let reason = osErrno == Int(ECONNREFUSED) ? "connection refused"
                : osErrno != 0 ? "could not connect (\(lowercaseFirst(String(cString: strerror(Int32(osErrno))))))" : "could not connect"
            return Failure(kind: .connectionFailed, reason: reason)
        case CURLE_PARTIAL_FILE:
            return Failure(kind: .connectionFailed, reason: "the server closed the connection before the whole body arrived")
        case CURLE_GOT_NOTHING:
            return Failure(kind: .connectionFailed, reason: "the server closed the connection without answering")
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR:
            return Failure(kind: .connectionFailed, reason: "the connection broke (\(lowercased(code)))")
        case CURLE_WEIRD_SERVER_REPLY:
            return Failure(kind: .connectionFailed, reason: "the answer was not valid HTTP")
        case CURLE_BAD_CONTENT_ENCODING:
            return Failure(kind: .connectionFailed, reason: "the body could not be decoded (bad content encoding)")
        case CURLE_TOO_MANY_REDIRECTS:
            return Failure(kind: .connectionFailed, reason: "more than 5 redirects")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_NOTFOUND,
             CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CLIENTCERT:
            return Failure(kind: .tls, reason: "TLS failed (\(lowercased(code)))")
        case CURLE_UNSUPPORTED_PROTOCOL:
            return Failure(kind: .invalidRequest, reason: "only http and https are allowed")
        case CURLE_URL_MALFORMAT:
            return Failure(kind: .invalidRequest, reason: "malformed URL")
        default:
            return Failure(kind: .connectionFailed, reason: lowercased(code))
        }
    }

    /// `curl_easy_strerror`, first letter lowercased, without a trailing period.
    private static func lowercased(_ code: CURLcode) -> String {
        var text = String(cString: curl_easy_strerror(code))
        if text.hasSuffix(".") { text.removeLast() }
        return lowercaseFirst(text)
    }

    private static func lowercaseFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        // An acronym keeps its case: `SSL connect error`, never `sSL connect error`.
        if let second = text.dropFirst().first, second.isUppercase { return text }
        return first.lowercased() + text.dropFirst()
    }

    /// `2s`, or `250ms` / `1500ms` when not whole seconds.
    static func describe(_ duration: Duration) -> String {
        let milliseconds = milliseconds(duration)
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }

    /// Whole milliseconds, at least 1 (libcurl reads 0 as "no timeout").
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let total = seconds.multipliedReportingOverflow(by: 1000)
        guard !total.overflow, seconds >= 0 else { return seconds < 0 ? 1 : Int.max / 2 }
        return max(1, Int(total.partialValue + attoseconds / 1_000_000_000_000_000))
    }
}
