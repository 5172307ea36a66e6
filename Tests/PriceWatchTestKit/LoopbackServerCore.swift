#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// The shared state of one ``LoopbackHTTPServer``: routes, the record of requests, open
/// connections and the accept loop. Connection threads hold this, never the public server, so
/// dropping the server stops it.
final class LoopbackServerCore: Sendable {
    typealias Handler = @Sendable (RecordedRequest) -> LoopbackResponse

    private struct State {
        var routes: [String: Handler] = [:]
        var fallback: Handler?
        var requests: [RecordedRequest] = []
        var sockets: Set<Int32> = []
        var gates: [LoopbackGate] = []
        var stopped = false
    }

    let port: UInt16
    private let listener: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let state: Mutex<State>
    private let stoppedGate = LoopbackGate()
    private let acceptLoopEnded = LoopbackGate()

    /// Listens on `127.0.0.1:port`; port 0 picks a free one. `SO_REUSEADDR` lets a test bind
    /// the port of a server it just stopped.
    init(port requestedPort: UInt16 = 0, fallback: Handler?) throws(LoopbackServerError) {
        let listener = socket(AF_INET, Self.streamType, 0)
        guard listener >= 0 else { throw LoopbackServerError("socket", errno) }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = requestedPort.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 1024) == 0 else {
            let error = LoopbackServerError("bind/listen on 127.0.0.1:\(requestedPort)", errno)
            close(listener)
            throw error
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        var pipeEnds: [Int32] = [0, 0]
        guard named == 0, pipe(&pipeEnds) == 0 else {
            let error = LoopbackServerError("getsockname/pipe", errno)
            close(listener)
            throw error
        }
        self.port = UInt16(bigEndian: address.sin_port)
        self.listener = listener
        self.wakeRead = pipeEnds[0]
        self.wakeWrite = pipeEnds[1]
        self.state = Mutex(State(fallback: fallback))
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "loopback-http-accept"
        thread.start()
    }

    static var streamType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    // MARK: Routing and recording

    func route(_ method: String, _ path: String, _ handler: @escaping Handler) {
        state.withLock { $0.routes[method.uppercased() + " " + path] = handler }
    }

    func setFallback(_ handler: @escaping Handler) {
        state.withLock { $0.fallback = handler }
    }

    var requests: [RecordedRequest] { state.withLock { $0.requests } }

    /// The requests so far and whether the server has stopped, read together.
    var snapshot: (requests: [RecordedRequest], stopped: Bool) { state.withLock { ($0.requests, $0.stopped) } }

    /// Records `request` and asks the handler for the answer.
    func respond(to request: RecordedRequest) -> LoopbackResponse {
        let handler = state.withLock { state -> Handler? in
            state.requests.append(request)
            return state.routes[request.method.uppercased() + " " + request.path] ?? state.fallback
        }
        guard let handler else {
            return .text("no route for \(request.method) \(request.path)", status: 404)
        }
        return handler(request)
    }

    // MARK: Waiting on the server's threads

    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Blocks a connection thread until `gate` opens or the server stops.
    func wait(for gate: LoopbackGate) {
        let stopped = state.withLock { state -> Bool in
            if !state.stopped { state.gates.append(gate) }
            return state.stopped
        }
        if !stopped { gate.wait() }
    }

    func waitUntilStopped() { stoppedGate.wait() }

    func forget(socket: Int32) {
        _ = state.withLock { $0.sockets.remove(socket) }
    }

    // MARK: Accepting and stopping

    private func acceptLoop() {
        defer {
            close(listener)
            close(wakeRead)
            acceptLoopEnded.open()
        }
        while true {
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || fds[1].revents != 0 { return }
            guard fds[0].revents & Int16(POLLIN) != 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            #if canImport(Darwin)
            // Linux sends with MSG_NOSIGNAL; Darwin has no such flag, only this socket option.
            // Either way, answering a client that hung up must not kill the test process.
            var noSignal: Int32 = 1
            setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let admitted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.sockets.insert(connection)
                return true
            }
            guard admitted else {
                close(connection)
                return
            }
            let core = self
            let thread = Thread { LoopbackHTTPConnection(socket: connection, core: core).serve() }
            thread.name = "loopback-http-connection"
            thread.start()
        }
    }

    /// Stops accepting (the port refuses connections when this returns), ends every open
    /// connection and releases held answers.
    func stop() {
        let (gates, alreadyStopped) = state.withLock { state in
            let already = state.stopped
            state.stopped = true
            // Shut down (not close) under the lock: the connection thread closes its socket only
            // after `forget`, which takes this lock, so the number cannot have been reused.
            for socket in state.sockets { shutdown(socket, Int32(SHUT_RDWR)) }
            defer { state.gates = [] }
            return (state.gates, already)
        }
        guard !alreadyStopped else {
            acceptLoopEnded.wait()
            return
        }
        stoppedGate.open()
        gates.forEach { $0.open() }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        acceptLoopEnded.wait()
        close(wakeWrite)
    }
}
