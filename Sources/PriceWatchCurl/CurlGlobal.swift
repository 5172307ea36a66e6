import CCurl

/// libcurl's process-wide initialisation, done once before the first handle is made
/// (`curl_global_init` is not thread-safe on its own before 7.84, so it is never raced).
enum CurlGlobal {
    static let initialised: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
}
