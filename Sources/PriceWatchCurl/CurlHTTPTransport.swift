import CCurl
import PriceWatchCore

/// The core's ``HTTPTransport`` on libcurl (not URLSession).
///
/// Every request runs on a ``CurlTransferLoop`` (one `curl_multi` handle on one dedicated
/// thread), so any number of requests run concurrently without blocking the cooperative pool.
/// Per request:
/// - only `http` and `https`, also for redirects (`CURLOPT_PROTOCOLS_STR`,
///   `CURLOPT_REDIR_PROTOCOLS_STR`); anything else is ``HTTPTransportError/Kind/invalidRequest``
///   before a connection is made;
/// - redirects only when ``HTTPRequest/followsRedirects`` (at most 5);
/// - TLS peer and host verification always on, with the system's CA store;
/// - the whole exchange bounded by ``HTTPRequest/timeout`` (`CURLOPT_TIMEOUT_MS`);
/// - a body over ``HTTPRequest/maximumResponseBytes`` (after decompression) aborts the
///   transfer with ``HTTPTransportError/Kind/responseTooLarge``;
/// - `Accept-Encoding` offers every encoding libcurl can decode (gzip, deflate, ...) and the
///   body arrives decoded;
/// - proxies come from the environment as libcurl reads it: `http_proxy` (lowercase only, by
///   libcurl's design), `https_proxy`/`HTTPS_PROXY`, `all_proxy`/`ALL_PROXY` and
///   `no_proxy`/`NO_PROXY`;
/// - `User-Agent: pricewatch/<version> (+https://github.com/pricewatch/pricewatch)` unless the
///   request sets its own; `Expect: 100-continue` is not sent (one round trip less);
/// - `GET` sends no body; `POST` and `PUT` send ``HTTPRequest/body`` as is.
///
/// Errors read `GET https://host/path: connection refused (curl error 7)`: the message never
/// shows the query string, user info or fragment, and every value in
/// ``HTTPRequest/redactions`` is replaced by `<redacted>`.
public struct CurlHTTPTransport: HTTPTransport {
    /// The User-Agent sent when a request sets none; keep the version in step with the CLI's.
    public static let defaultUserAgent = "pricewatch/\(PriceWatchVersion.current) (+https://github.com/pricewatch/pricewatch)"

    private let loop: CurlTransferLoop
    private let userAgent: String

    /// - Parameters:
    ///   - userAgent: sent when a request has no `User-Agent` header.
    ///   - loop: the transfer loop to run on; share one with the mail transport to use one thread.
    public init(userAgent: String = CurlHTTPTransport.defaultUserAgent, loop: CurlTransferLoop = CurlTransferLoop()) {
        self.userAgent = userAgent
        self.loop = loop
    }

    public func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        let target = CurlRequestTarget(url: request.url, redactions: request.redactions)
        func failure(_ kind: HTTPTransportError.Kind, _ reason: String) -> HTTPTransportError {
            HTTPTransportError(kind, CurlRequestTarget.redact("\(request.method.rawValue) \(target.description): \(reason)",
                                                              request.redactions))
        }
        guard let scheme = target.scheme else {
            throw failure(.invalidRequest, "not an absolute http or https URL")
        }
        guard scheme == "http" || scheme == "https" else {
            throw failure(.invalidRequest, "only http and https are allowed, found scheme \"\(scheme)\"")
        }
        if let bad = request.headers.first(where: { !Self.isValidHeader($0) }) {
            throw failure(.invalidRequest, "header \"\(Self.printable(bad.name))\" contains a line break or an invalid name")
        }
        guard let handle = CurlEasyHandle() else {
            throw failure(.connectionFailed, "libcurl could not be initialised")
        }
        let collector = CurlResponseCollector(limit: request.maximumResponseBytes)
        let configured = configure(handle, for: request, collector: collector)
        guard configured == CURLE_OK else {
            throw failure(.invalidRequest, "libcurl refused an option (\(String(cString: curl_easy_strerror(configured))))")
        }

        let result: CurlTransferResult
        do {
            result = try await loop.perform(handle)
        } catch {
            throw failure(.cancelled, "cancelled")
        }
        // The callbacks hold an unretained pointer to the collector until the transfer ended.
        withExtendedLifetime(collector) {}

        guard result.succeeded else {
            let mapped = CurlHTTPErrorMapping.failure(
                for: result.code, osErrno: handle.info(CURLINFO_OS_ERRNO), exceededLimit: collector.exceededLimit,
                limit: collector.limit, timeout: request.timeout)
            throw failure(mapped.kind, "\(mapped.reason) (curl error \(result.code.rawValue))")
        }
        return HTTPResponse(status: handle.info(CURLINFO_RESPONSE_CODE), headers: collector.headers, body: collector.body)
    }

    /// Sets every option of one request; the first refusal is returned.
    private func configure(_ handle: CurlEasyHandle, for request: HTTPRequest,
                           collector: CurlResponseCollector) -> CURLcode {
        let headers = CurlStringList()
        var hasExpect = false
        for header in request.headers {
            // "Name;" is libcurl's way to send a header with an empty value.
            headers.append(header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)")
            if header.name.lowercased() == "expect" { hasExpect = true }
        }
        if !hasExpect { headers.append("Expect:") }

        var codes = [
            handle.set(CURLOPT_URL, request.url),
            handle.set(CURLOPT_NOSIGNAL, true),
            handle.set(CURLOPT_PROTOCOLS_STR, "http,https"),
            handle.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            handle.set(CURLOPT_FOLLOWLOCATION, request.followsRedirects),
            handle.set(CURLOPT_MAXREDIRS, 5),
            handle.set(CURLOPT_TIMEOUT_MS, CurlHTTPErrorMapping.milliseconds(request.timeout)),
            handle.set(offset: CURLOPT_MAXFILESIZE_LARGE, Int64(max(0, request.maximumResponseBytes))),
            handle.set(CURLOPT_ACCEPT_ENCODING, ""),
            handle.set(CURLOPT_SSL_VERIFYPEER, true),
            handle.set(CURLOPT_SSL_VERIFYHOST, 2),
            handle.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, true),
            handle.set(CURLOPT_USERAGENT, userAgent),
            handle.set(CURLOPT_HTTPHEADER, headers),
            collector.install(on: handle),
        ]
        switch request.method {
        case .get:
            codes.append(handle.set(CURLOPT_HTTPGET, true))
        case .delete:
            codes.append(handle.set(CURLOPT_HTTPGET, true))
            codes.append(handle.set(CURLOPT_CUSTOMREQUEST, "DELETE"))
        case .post, .put:
            codes.append(handle.set(CURLOPT_POST, true))
            codes.append(handle.set(offset: CURLOPT_POSTFIELDSIZE_LARGE, Int64(request.body.count)))
            // COPYPOSTFIELDS copies the bytes now (the size set above, so NULs are fine).
            var body = request.body
            if body.isEmpty { body = [0] }
            codes.append(body.withUnsafeMutableBytes { handle.set(pointer: CURLOPT_COPYPOSTFIELDS, $0.baseAddress) })
            if request.method == .put { codes.append(handle.set(CURLOPT_CUSTOMREQUEST, "PUT")) }
        }
        return codes.first { $0 != CURLE_OK } ?? CURLE_OK
    }

    /// A token name (RFC 9110) and a value without CR, LF or NUL: nothing that could smuggle a header.
    private static func isValidHeader(_ header: HTTPHeader) -> Bool {
        let tokenSymbols = Set("!#$%&'*+-.^_`|~".utf8)
        let nameIsToken = !header.name.isEmpty && header.name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
                || tokenSymbols.contains(byte)
        }
        return nameIsToken && !header.value.utf8.contains { $0 == 0x0d || $0 == 0x0a || $0 == 0 }
    }

    private static func printable(_ text: String) -> String {
        ControlCharacters.escaped(String(text.prefix(60)))
    }
}
