import CCurl
import Foundation
import PriceWatchCore
import Synchronization

/// ``MailTransport`` on libcurl's SMTP: one easy handle per message, performed on a thread of
/// its own so that the blocking session never occupies the Swift cooperative pool.
///
/// TLS: `smtp://` sets `CURLOPT_USE_SSL = CURLUSESSL_ALL`, so a server that does not offer
/// STARTTLS fails the session (`CURLE_USE_SSL_FAILED`) instead of sending in clear; `smtps://`
/// is TLS from the start; only ``MailSubmission/Security/none`` sets `CURLUSESSL_NONE`, and it
/// is refused together with credentials. Peer and host verification are always on.
///
/// Cancellation of the calling task aborts the session from the progress callback, which
/// libcurl calls at least once a second.
public struct CurlMailTransport: MailTransport {
    public init() {}

    public func send(_ submission: MailSubmission) async throws(MailTransportError) {
        if let problem = submission.problem {
            throw MailTransportError(.invalidRequest, "\(submission.serverName): \(problem)")
        }
        guard CurlGlobal.initialised else {
            throw MailTransportError(.invalidRequest, "\(submission.serverName): libcurl failed to initialise")
        }
        if Task.isCancelled { throw MailTransportError(.cancelled, "\(submission.serverName): cancelled before sending") }
        let session = SMTPSession(submission)
        let result: Result<Void, MailTransportError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    continuation.resume(returning: session.perform())
                }
                thread.name = "pricewatch-smtp"
                thread.start()
            }
        } onCancel: {
            session.cancel()
        }
        try result.get()
    }
}

/// One SMTP session: the easy handle, the message being uploaded and the outcome.
///
/// `@unchecked Sendable`: every mutable field is touched only by the one thread that runs
/// ``perform()`` (libcurl calls the callbacks on it); ``cancel()`` touches only the atomic flag.
final class SMTPSession: @unchecked Sendable {
    private let submission: MailSubmission
    private let message: [UInt8]
    private var offset = 0
    private let cancelled = Atomic<Bool>(false)

    init(_ submission: MailSubmission) {
        self.submission = submission
        self.message = submission.message
    }

    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Runs the whole session; blocks the calling thread.
    func perform() -> Result<Void, MailTransportError> {
        guard let handle = curl_easy_init() else {
            return .failure(MailTransportError(.connectionFailed, "\(submission.serverName): libcurl could not create a handle"))
        }
        var recipients: UnsafeMutablePointer<curl_slist>?
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer {
            curl_easy_cleanup(handle)
            curl_slist_free_all(recipients)
        }
        for address in submission.recipients {
            guard let appended = curl_slist_append(recipients, "<\(address)>") else {
                return .failure(MailTransportError(.connectionFailed, "\(submission.serverName): out of memory building the recipient list"))
            }
            recipients = appended
        }
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { buffer in
            let setup = configure(handle, recipients: recipients, errorBuffer: buffer.baseAddress)
            guard setup == CURLE_OK else { return setup }
            return withExtendedLifetime(self) { curl_easy_perform(handle) }
        }
        if code == CURLE_OK { return .success(()) }
        var reply = 0
        _ = pricewatch_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &reply)
        let detail = errorBuffer.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { String(cString: $0) } ?? ""
        }
        return .failure(classify(code, reply: reply, detail: detail))
    }

    private func configure(_ handle: UnsafeMutableRawPointer, recipients: UnsafeMutablePointer<curl_slist>?,
                           errorBuffer: UnsafeMutablePointer<CChar>?) -> CURLcode {
        let timeout = submission.timeout.components
        let milliseconds = max(1, Int(timeout.seconds) * 1000 + Int(timeout.attoseconds / 1_000_000_000_000_000))
        var codes: [CURLcode] = [
            pricewatch_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer),
            pricewatch_curl_easy_setopt_string(handle, CURLOPT_URL, submission.url),
            pricewatch_curl_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps"),
            pricewatch_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            pricewatch_curl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds),
            pricewatch_curl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds),
            pricewatch_curl_easy_setopt_long(handle, CURLOPT_USE_SSL,
                                             Int(submission.security == .none ? CURLUSESSL_NONE.rawValue : CURLUSESSL_ALL.rawValue)),
            pricewatch_curl_easy_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1),
            pricewatch_curl_easy_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2),
            pricewatch_curl_easy_setopt_string(handle, CURLOPT_MAIL_FROM, "<\(submission.envelopeFrom)>"),
            pricewatch_curl_easy_setopt_slist(handle, CURLOPT_MAIL_RCPT, recipients),
            pricewatch_curl_easy_setopt_long(handle, CURLOPT_UPLOAD, 1),
            pricewatch_curl_easy_setopt_data_callback(handle, CURLOPT_READFUNCTION, smtpReadCallback),
            pricewatch_curl_easy_setopt_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(self).toOpaque()),
            pricewatch_curl_easy_setopt_long(handle, CURLOPT_NOPROGRESS, 0),
            pricewatch_curl_easy_setopt_progress_callback(handle, smtpProgressCallback),
            pricewatch_curl_easy_setopt_pointer(handle, CURLOPT_XFERINFODATA, Unmanaged.passUnretained(self).toOpaque()),
        ]
        if let caFile = submission.caFile {
            codes.append(pricewatch_curl_easy_setopt_string(handle, CURLOPT_CAINFO, caFile))
        }
        if let username = submission.username, let password = submission.password {
            codes.append(pricewatch_curl_easy_setopt_string(handle, CURLOPT_USERNAME, username))
            codes.append(pricewatch_curl_easy_setopt_string(handle, CURLOPT_PASSWORD, password.value))
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
        case CURLE_ABORTED_BY_CALLBACK where isCancelled:
            return MailTransportError(.cancelled, "\(server): cancelled")
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
    let session = Unmanaged<SMTPSession>.fromOpaque(userdata).takeUnretainedValue()
    if session.isCancelled { return Int(CURL_READFUNC_ABORT) }
    return session.read(into: buffer, capacity: size * count)
}

private let smtpProgressCallback: pricewatch_curl_progress_callback = { userdata, _, _, _, _ in
    guard let userdata else { return 0 }
    return Unmanaged<SMTPSession>.fromOpaque(userdata).takeUnretainedValue().isCancelled ? 1 : 0
}
