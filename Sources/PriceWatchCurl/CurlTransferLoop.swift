import CCurl

/// Runs libcurl transfers (HTTP, SMTP, ...) concurrently on one `curl_multi` handle driven by
/// one dedicated thread, so no blocking libcurl call ever runs on the Swift cooperative pool.
///
/// Any libcurl adapter can reuse it: configure a ``CurlEasyHandle`` on the calling task, then
/// `perform` it and read the handle's info afterwards.
///
/// ```swift
/// guard let handle = CurlEasyHandle() else { ... }
/// handle.set(CURLOPT_URL, "smtps://mail.example.com")
/// handle.set(CURLOPT_MAIL_FROM, "<alerts@example.com>")
/// let recipients = CurlStringList(); recipients.append("<me@example.com>")
/// handle.set(CURLOPT_MAIL_RCPT, recipients)            // kept alive by the handle
/// handle.set(callback: CURLOPT_READFUNCTION, { buffer, size, count, userdata in ... })
/// handle.set(pointer: CURLOPT_READDATA, Unmanaged.passUnretained(source).toOpaque())
/// let result = try await loop.perform(handle)          // throws CancellationError
/// withExtendedLifetime(source) {}                      // user data outlives the transfer
/// if !result.succeeded { ... result.code, result.detail, handle.info(CURLINFO_RESPONSE_CODE) }
/// ```
///
/// Contract of ``perform(_:)``: the handle is added to the multi handle on the loop thread and
/// the call resumes when libcurl reports it done, with its `CURLcode`. Cancelling the calling
/// task removes the handle from the multi handle promptly (no callback runs after `perform`
/// returns) and throws `CancellationError`. Deadlines are the handle's own (`CURLOPT_TIMEOUT_MS`).
/// The thread ends when the loop is released; in-flight calls keep it alive.
public final class CurlTransferLoop: Sendable {
    private let driver = CurlMultiDriver()

    /// Starts the loop thread. If libcurl cannot be initialised, every transfer fails with
    /// `CURLE_FAILED_INIT` instead.
    public init() {
        driver.start(name: "pricewatch-curl")
    }

    deinit { driver.stop() }

    /// Runs the configured `handle` to completion; see the type's contract.
    func perform(_ handle: CurlEasyHandle) async throws(CancellationError) -> CurlTransferResult {
        let driver = self.driver
        let id = driver.makeID()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                driver.submit(.init(id: id, handle: handle, continuation: continuation))
            }
        } onCancel: {
            driver.cancel(id)
        }
        // Keeps the loop (and so its thread) alive until the transfer is out of the multi handle.
        withExtendedLifetime(self) {}
        switch outcome {
        case .cancelled:
            throw CancellationError()
        case .completed(let code):
            return CurlTransferResult(code: code, detail: code == CURLE_OK ? "" : handle.errorDetail)
        }
    }
}
