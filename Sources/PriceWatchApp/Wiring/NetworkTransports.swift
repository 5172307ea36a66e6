import PriceWatchCurl

/// The network transports of one process: libcurl's HTTP (providers, webhook sinks) and SMTP
/// (email sinks) on one shared ``CurlTransferLoop``, so every transfer runs on one thread.
///
/// Sharing is safe for SMTP because ``CurlMailTransport`` aborts a cancelled session through
/// libcurl's progress callback instead of removing the handle mid-session (which in libcurl
/// 7.88 blocks the loop thread on `QUIT`).
public struct NetworkTransports: Sendable {
    /// HTTP through the shared loop.
    public let http: CurlHTTPTransport
    /// SMTP submission through the shared loop.
    public let mail: CurlMailTransport

    /// Both transports on `loop` (a new loop thread unless given).
    public init(loop: CurlTransferLoop = CurlTransferLoop()) {
        http = CurlHTTPTransport(loop: loop)
        mail = CurlMailTransport(loop: loop)
    }
}
