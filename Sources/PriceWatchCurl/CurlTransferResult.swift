import CCurl

/// How one transfer run by ``CurlTransferLoop`` ended (cancellation is thrown instead).
struct CurlTransferResult: Sendable {
    /// `CURLE_OK`, or why the transfer failed.
    var code: CURLcode
    /// libcurl's own detail (`CURLOPT_ERRORBUFFER`), possibly empty; may name the host.
    var detail: String

    var succeeded: Bool { code == CURLE_OK }

    /// libcurl's generic text for ``code`` (`curl_easy_strerror`).
    var codeDescription: String { String(cString: curl_easy_strerror(code)) }
}
