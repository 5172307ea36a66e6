import CCurl

/// A libcurl `curl_slist` (request headers, mail recipients) freed when the last reference goes.
///
/// Hand it to `CurlEasyHandle.set(_:_:)`, which keeps it alive as long as
/// the handle, since libcurl reads the list during the transfer without copying it.
final class CurlStringList {
    private(set) var head: UnsafeMutablePointer<curl_slist>?

    init() {}

    /// Appends a copy of `line`; false when libcurl is out of memory.
    @discardableResult
    func append(_ line: String) -> Bool {
        guard let extended = curl_slist_append(head, line) else { return false }
        head = extended
        return true
    }

    deinit { curl_slist_free_all(head) }
}
