import CCurl
import PriceWatchCore
import Synchronization

/// ``MailTransport`` on libcurl's SMTP: one easy handle per message, run on a
/// ``CurlTransferLoop`` (one `curl_multi` handle on a dedicated thread), so the blocking
/// session never occupies the Swift cooperative pool. Cancelling the calling task aborts the
/// session at libcurl's next progress call (within about a second).
///
/// TLS: `smtp://` sets `CURLOPT_USE_SSL = CURLUSESSL_ALL`, so a server that does not offer
/// STARTTLS fails the session (`CURLE_USE_SSL_FAILED`) instead of sending in clear; `smtps://`
/// is TLS from the start; only ``MailSubmission/Security/none`` sets `CURLUSESSL_NONE`, and it
/// is refused together with credentials. Peer and host verification are always on.
public struct CurlMailTransport: MailTransport {
    private let loop: CurlTransferLoop

    /// - Parameter loop: the transfer loop to run on; share the HTTP transport's to use one thread.
    public init(loop: CurlTransferLoop = CurlTransferLoop()) {
        self.loop = loop
    }

    public func send(_ submission: MailSubmission) async throws(MailTransportError) {
        if let problem = submission.problem {
            throw MailTransportError(.invalidRequest, "\(submission.serverName): \(problem)")
        }
        let session = SMTPSession(submission)
        guard let handle = CurlEasyHandle() else {
            throw MailTransportError(.connectionFailed, "\(submission.serverName): libcurl could not create a handle")
        }
        guard session.configure(handle) == CURLE_OK else {
            throw MailTransportError(.invalidRequest, "\(submission.serverName): libcurl refused an SMTP option (\(handle.errorDetail))")
        }
        if Task.isCancelled { throw MailTransportError(.cancelled, "\(submission.serverName): cancelled") }
        // The transfer is shielded from the caller's cancellation, which instead makes the
        // progress callback abort it: libcurl 7.88 answers `curl_multi_remove_handle` on an
        // SMTP session in progress with a blocking QUIT (up to the 120 s server-response
        // timeout), which would stall the loop thread and every transfer on it. An aborted
        // transfer ends through the normal completion path without that wait.
        let loop = self.loop
        let transfer = Task { () async throws(CancellationError) -> CurlTransferResult in try await loop.perform(handle) }
        let outcome = await withTaskCancellationHandler {
            await transfer.result
        } onCancel: {
            session.cancel()
        }
        guard case .success(let result) = outcome, !(result.code == CURLE_ABORTED_BY_CALLBACK && session.isCancelled) else {
            throw MailTransportError(.cancelled, "\(submission.serverName): cancelled")
        }
        // The read callback's user data must outlive the transfer.
        withExtendedLifetime(session) {}
        if result.succeeded { return }
        throw session.classify(result.code, reply: handle.info(CURLINFO_RESPONSE_CODE), detail: result.detail)
    }
}

/// One SMTP session: the options of its easy handle and the message being uploaded.
///
/// `@unchecked Sendable`: `offset` is touched only by the read callback, which libcurl calls on
/// the loop thread, one call at a time, while the transfer runs; `cancelled` is atomic; the
/// rest is immutable.
final class SMTPSession: @unchecked Sendable {
    private let submission: MailSubmission
    private let message: [UInt8]
    private var offset = 0
    private let cancelled = Atomic<Bool>(false)

    /// Makes the transfer abort at libcurl's next progress call (at least once a second).
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    init(_ submission: MailSubmission) {
        self.submission = submission
        self.message = submission.message
    }

    /// Sets every option of the session on `handle`; the first failure, or `CURLE_OK`.
    func configure(_ handle: CurlEasyHandle) -> CURLcode {
        let milliseconds = CurlHTTPErrorMapping.milliseconds(submission.timeout)
        let recipients = CurlStringList()
        for address in submission.recipients where !recipients.append("<\(address)>") { return CURLE_OUT_OF_MEMORY }
        var codes: [CURLcode] = [
            handle.set(CURLOPT_URL, submission.url),
            handle.set(CURLOPT_PROTOCOLS_STR, "smtp,smtps"),
            handle.set(CURLOPT_NOSIGNAL, true),
            handle.set(CURLOPT_TIMEOUT_MS, milliseconds),
            handle.set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds),
            handle.set(CURLOPT_USE_SSL, Int(submission.security == .none ? CURLUSESSL_NONE.rawValue : CURLUSESSL_ALL.rawValue)),
            handle.set(CURLOPT_SSL_VERIFYPEER, true),
            handle.set(CURLOPT_SSL_VERIFYHOST, 2),
            handle.set(CURLOPT_MAIL_FROM, "<\(submission.envelopeFrom)>"),
            handle.set(CURLOPT_MAIL_RCPT, recipients),
            handle.set(CURLOPT_UPLOAD, true),
            handle.set(callback: CURLOPT_READFUNCTION, smtpReadCallback),
            handle.set(pointer: CURLOPT_READDATA, Unmanaged.passUnretained(self).toOpaque()),
            handle.set(CURLOPT_NOPROGRESS, false),
            pricewatch_curl_easy_setopt_progress_callback(handle.raw, smtpProgressCallback),
            handle.set(pointer: CURLOPT_XFERINFODATA, Unmanaged.passUnretained(self).toOpaque()),
        ]
        if let caFile = submission.caFile {
            codes.append(handle.set(CURLOPT_CAINFO, caFile))
        }
        if let username = submission.username, let password = submission.password {
            codes.append(handle.set(CURLOPT_USERNAME, username))
            codes.append(handle.set(CURLOPT_PASSWORD, password.value))
        }
        return codes.first { $0 != CURLE_OK } ?? CURLE_OK
    }

    /// Copies the next part of the message into libcurl's buffer (0 at the end).
    fileprivate func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        let count = min(capacity, message.count - offset)
        guard count > 0 else { return 0 }
        message.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            UnsafeMutableRawPointer(buffer).copyMemory(from: base + offset, byteCount: count)
        }
        offset += count
        return count
    }

    /// Turns a failed session into an error that says whether a retry can help.
    func classify(_ code: CURLcode, reply: Int, detail: String) -> MailTransportError {
        let server = submission.serverName
        var what = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        if let password = submission.password?.value, !password.isEmpty {
            what = what.replacing(password, with: "<secret>")
        }
        let replyCode = (200...599).contains(reply) ? reply : nil
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return MailTransportError(.timedOut, "\(server): no answer within \(submission.timeout) (\(what))", replyCode: replyCode)
        case CURLE_USE_SSL_FAILED:
            return MailTransportError(.tls, "\(server): the server does not offer STARTTLS, which is required (\(what)); nothing was sent", replyCode: replyCode)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return MailTransportError(.tls, "\(server): TLS failed: \(what)", replyCode: replyCode)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return MailTransportError(.invalidRequest, "\(server): \(what)")
        default:
            break
        }
        if let replyCode, replyCode >= 400 {
            let said = "the server replied \(replyCode) (\(what))"
            if replyCode >= 500 {
                let kind: MailTransportError.Kind = code == CURLE_LOGIN_DENIED ? .authenticationFailed : .permanentReply
                let prefix = kind == .authenticationFailed ? "authentication failed: " : ""
                return MailTransportError(kind, "\(server): \(prefix)\(said)", replyCode: replyCode)
            }
            return MailTransportError(.transientReply, "\(server): \(said); try again later", replyCode: replyCode)
        }
        if code == CURLE_LOGIN_DENIED {
            return MailTransportError(.authenticationFailed, "\(server): authentication failed (\(what))", replyCode: replyCode)
        }
        return MailTransportError(.connectionFailed, "\(server): \(what)", replyCode: replyCode)
    }
}

private let smtpReadCallback: pricewatch_curl_data_callback = { buffer, size, count, userdata in
    guard let buffer, let userdata else { return 0 }
    return Unmanaged<SMTPSession>.fromOpaque(userdata).takeUnretainedValue().read(into: buffer, capacity: size * count)
}

private let smtpProgressCallback: pricewatch_curl_progress_callback = { userdata, _, _, _, _ in
    guard let userdata else { return 0 }
    return Unmanaged<SMTPSession>.fromOpaque(userdata).takeUnretainedValue().isCancelled ? 1 : 0
}
