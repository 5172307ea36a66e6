#if canImport(Glibc)
import Glibc
#endif
import CMosquitto
import Dispatch
import Foundation
import Synchronization

/// libmosquitto's network loop for one client on a thread of its own, waiting with poll(2):
/// reads, writes, keep-alive, and reconnection after a lost connection (after 1 s, doubling
/// to 30 s) while ``reconnects`` is on.
///
/// This is what `mosquitto_loop_start` does, but its loop waits with select(2), which takes
/// no descriptor above 1,023: in a process with more files open than that, it fails with
/// `MOSQ_ERR_INVAL` and its thread ends without a word, so the CONNACK is never read.
///
/// The client is marked threaded (`mosquitto_threaded_set`): calls made on other threads
/// (publish, subscribe, disconnect) only queue their packets, and the caller then calls
/// ``wake()`` so that this loop writes them at once.
final class MosquittoNetworkLoop: @unchecked Sendable {
    // @unchecked: `client` is used through libmosquitto's own locking; the pipe's ends are
    // immutable and closed once the thread has ended; the rest is in mutexes.

    private let client: OpaquePointer
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let running = Mutex(true)
    private let reconnecting = Mutex(true)
    private let ended = DispatchSemaphore(value: 0)
    private let stopped = Mutex(false)

    static let shortestReconnectDelay = 1
    static let longestReconnectDelay = 30

    /// Starts the loop of `client`, which `mosquitto_connect` has connected (or is to be
    /// reconnected by the loop); nil when no pipe could be made.
    init?(client: OpaquePointer, name: String) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        self.client = client
        wakeRead = ends[0]
        wakeWrite = ends[1]
        mosquitto_threaded_set(client, true)
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Whether a lost connection is made again (on by default). Turn it off before a
    /// `mosquitto_disconnect` that is meant to last.
    var reconnects: Bool {
        get { reconnecting.withLock { $0 } }
        set { reconnecting.withLock { $0 = newValue } }
    }

    /// Has the loop look at the client now: a packet was queued.
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Ends the loop and waits for its thread; once, however often it is called.
    func stop() {
        let already = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !already else { return }
        running.withLock { $0 = false }
        wake()
        ended.wait()
        close(wakeRead)
        close(wakeWrite)
    }

    private var isRunning: Bool { running.withLock { $0 } }

    private func run() {
        defer { ended.signal() }
        var delay = Self.shortestReconnectDelay
        while isRunning {
            let socket = mosquitto_socket(client)
            guard socket >= 0 else {
                // Not connected: wait (a stop wakes it), then connect again if asked to.
                waitForWake(milliseconds: Int32(delay * 1000))
                guard isRunning, reconnects else { continue }
                let rc = mosquitto_reconnect(client)
                delay = rc == MOSQ_ERR_SUCCESS.rawValue ? Self.shortestReconnectDelay : min(delay * 2, Self.longestReconnectDelay)
                continue
            }
            var events = Int16(POLLIN)
            if mosquitto_want_write(client) { events |= Int16(POLLOUT) }
            var fds = [pollfd(fd: socket, events: events, revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            // A second at most, so keep-alive pings go out on time.
            let ready = poll(&fds, 2, 1000)
            if ready < 0, errno != EINTR { waitForWake(milliseconds: 100) }
            if fds[1].revents != 0 { drainWakes() }
            var rc = MOSQ_ERR_SUCCESS.rawValue
            if fds[0].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 { rc = mosquitto_loop_read(client, 1) }
            // Errors close the socket and call the disconnect callback inside libmosquitto.
            if rc == MOSQ_ERR_SUCCESS.rawValue, mosquitto_socket(client) >= 0, mosquitto_want_write(client) {
                rc = mosquitto_loop_write(client, 1)
            }
            if mosquitto_socket(client) >= 0 {
                _ = mosquitto_loop_misc(client)
                delay = Self.shortestReconnectDelay
            }
        }
    }

    private func waitForWake(milliseconds: Int32) {
        var fd = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        if poll(&fd, 1, milliseconds) > 0 { drainWakes() }
    }

    private func drainWakes() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
    }
}
