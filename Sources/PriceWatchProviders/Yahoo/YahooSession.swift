import PriceWatchCore

/// The cookie and crumb Yahoo's v7 quote endpoint requires.
struct YahooCredentials: Sendable, Hashable {
    /// The `Cookie` header, when the session answer set cookies.
    var cookie: String?
    var crumb: String
}

/// Holds Yahoo's cookie and crumb, fetched on first use and again when Yahoo rejects them
/// (HTTP 401). Concurrent fetches share one refresh.
///
/// Establishing a session is two requests: GET `session_url` (by default
/// `https://fc.yahoo.com`; any status, its `Set-Cookie` headers are what counts), then GET
/// `BASE/v1/test/getcrumb` with those cookies.
actor YahooSession {
    private let transport: any HTTPTransport
    private let sessionURL: String
    private let crumbURL: String
    private let headers: [HTTPHeader]
    private let timeout: Duration
    private var current: YahooCredentials?
    private var pending: Task<Result<YahooCredentials, ProviderError>, Never>?

    init(transport: any HTTPTransport, sessionURL: String, baseURL: String, headers: [HTTPHeader], timeout: Duration) {
        self.transport = transport
        self.sessionURL = sessionURL
        self.crumbURL = baseURL + "/v1/test/getcrumb"
        self.headers = headers
        self.timeout = timeout
    }

    /// The current credentials, establishing a session when there is none.
    func credentials() async throws(ProviderError) -> YahooCredentials {
        if let current { return current }
        return try await refresh(replacing: nil)
    }

    /// New credentials in place of `stale`; when another caller already replaced them, theirs.
    func refresh(replacing stale: YahooCredentials?) async throws(ProviderError) -> YahooCredentials {
        if let current, current != stale { return current }
        current = nil
        let task: Task<Result<YahooCredentials, ProviderError>, Never>
        if let pending {
            task = pending
        } else {
            let (transport, sessionURL, crumbURL, headers, timeout) = (self.transport, self.sessionURL, self.crumbURL, self.headers, self.timeout)
            task = Task {
                do throws(ProviderError) {
                    return .success(try await Self.establish(transport: transport, sessionURL: sessionURL,
                                                             crumbURL: crumbURL, headers: headers, timeout: timeout))
                } catch {
                    return .failure(error)
                }
            }
            pending = task
        }
        let result = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        if pending == task { pending = nil }
        if case .success(let credentials) = result { current = credentials }
        return try result.get()
    }

    private static func establish(transport: any HTTPTransport, sessionURL: String, crumbURL: String,
                                  headers: [HTTPHeader], timeout: Duration) async throws(ProviderError) -> YahooCredentials {
        let sessionAnswer = try await ProviderAnswer.send(
            HTTPRequest(url: sessionURL, headers: headers, timeout: timeout, maximumResponseBytes: 1 << 20),
            through: transport, endpoint: "yahoo session")
        if sessionAnswer.status == 429 || sessionAnswer.status >= 500 {
            throw ProviderAnswer.failure(sessionAnswer, endpoint: "yahoo session")
        }
        // fc.yahoo.com answers 404 with the cookies: any other status is fine.
        let cookie = YahooErrorDecoder.cookie(sessionAnswer)
        let crumbAnswer = try await ProviderAnswer.send(
            HTTPRequest(url: crumbURL, headers: headers + (cookie.map { [HTTPHeader("Cookie", $0)] } ?? []),
                        timeout: timeout, maximumResponseBytes: 64 << 10, redactions: cookie.map { [$0] } ?? []),
            through: transport, endpoint: "yahoo getcrumb")
        return YahooCredentials(cookie: cookie, crumb: try YahooErrorDecoder.crumb(crumbAnswer))
    }
}
