import CCurl

/// One libcurl easy handle (`CURL *`), its error buffer, and the lists it must keep alive.
///
/// Life cycle: make it, configure it with the `set` methods on the calling task, hand it to
/// ``CurlTransferLoop/perform(_:)``, then read `info` and ``errorDetail`` after `perform`
/// returns. Only one thread uses it at a time (the caller, then the loop thread, then the
/// caller again, each hand-over ordered by the loop's lock or continuation), which is why it is
/// `@unchecked Sendable`. `curl_easy_cleanup` runs when the last reference goes.
final class CurlEasyHandle: @unchecked Sendable {
    /// The `CURL *` for calls this type does not wrap.
    let raw: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var retainedLists: [CurlStringList] = []

    /// Nil when libcurl could not be initialised or is out of memory.
    init?() {
        guard CurlGlobal.initialised, let raw = curl_easy_init() else { return nil }
        self.raw = raw
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        pricewatch_curl_easy_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer)
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    /// libcurl's own words for the last failure (`CURLOPT_ERRORBUFFER`); may name hosts, so
    /// callers redact before showing it.
    var errorDetail: String { String(cString: errorBuffer) }

    func clearErrorDetail() { errorBuffer[0] = 0 }

    @discardableResult
    func set(_ option: CURLoption, _ value: Int) -> CURLcode {
        pricewatch_curl_easy_setopt_long(raw, option, value)
    }

    @discardableResult
    func set(_ option: CURLoption, _ value: Bool) -> CURLcode {
        pricewatch_curl_easy_setopt_long(raw, option, value ? 1 : 0)
    }

    /// Options of type `curl_off_t` (`CURLOPT_MAXFILESIZE_LARGE`, `..._POSTFIELDSIZE_LARGE`).
    @discardableResult
    func set(offset option: CURLoption, _ value: Int64) -> CURLcode {
        pricewatch_curl_easy_setopt_off_t(raw, option, curl_off_t(value))
    }

    /// String options; libcurl copies the string.
    @discardableResult
    func set(_ option: CURLoption, _ value: String) -> CURLcode {
        pricewatch_curl_easy_setopt_string(raw, option, value)
    }

    /// List options; the handle keeps `list` alive until it is cleaned up.
    @discardableResult
    func set(_ option: CURLoption, _ list: CurlStringList) -> CURLcode {
        retainedLists.append(list)
        return pricewatch_curl_easy_setopt_slist(raw, option, list.head)
    }

    /// Pointer options (callback user data). The caller keeps the pointee alive until the
    /// transfer has ended.
    @discardableResult
    func set(pointer option: CURLoption, _ value: UnsafeMutableRawPointer?) -> CURLcode {
        pricewatch_curl_easy_setopt_pointer(raw, option, value)
    }

    /// `CURLOPT_WRITEFUNCTION`, `CURLOPT_READFUNCTION`, `CURLOPT_HEADERFUNCTION`.
    @discardableResult
    func set(callback option: CURLoption, _ callback: pricewatch_curl_data_callback) -> CURLcode {
        pricewatch_curl_easy_setopt_data_callback(raw, option, callback)
    }

    /// A `long` piece of information (`CURLINFO_RESPONSE_CODE`, `CURLINFO_OS_ERRNO`); 0 if unknown.
    func info(_ info: CURLINFO) -> Int {
        var value = 0
        return pricewatch_curl_easy_getinfo_long(raw, info, &value) == CURLE_OK ? value : 0
    }
}
