import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchTestKit

/// The demo configuration (`demo/`: AAPL replayed each second, alerts on standard output)
/// copied to a temporary directory with `[http]` on a free loopback port, running as the real
/// `pricewatch run`.
struct DashboardDaemon {
    let directory: TemporaryDirectory
    let daemon: RunningDaemon
    let port: Int
    let transport = CurlHTTPTransport()

    /// - Parameters:
    ///   - http: the `[http]` table's lines other than `listen`.
    ///   - rows: replay only the recorded file's first rows: after them the state stays as it is.
    init(http: String = "", listenHost: String = "127.0.0.1", environment: [String: String] = [:], rows: Int? = nil) throws {
        directory = try TemporaryDirectory()
        port = try Self.freePort()
        let main = try String(contentsOfFile: RepositoryFiles.path("demo/pricewatch.toml"), encoding: .utf8)
        try directory.write("pricewatch.toml", main + "\n[http]\nlisten = \"\(listenHost):\(port)\"\n" + http)
        try directory.write("rules.d/aapl.toml", String(contentsOfFile: RepositoryFiles.path("demo/rules.d/aapl.toml"), encoding: .utf8))
        // The recording's lines end in CRLF, one Character in Swift: splitting on "\n" found one
        // line, and `rows` replayed the whole file (the pages then raced the replay).
        let recorded = try String(contentsOfFile: RepositoryFiles.path("demo/data/aapl-1m-2024-10-02.csv"), encoding: .utf8)
        try directory.write("data/aapl-1m-2024-10-02.csv",
                            rows.map { recorded.split(whereSeparator: \.isNewline).prefix($0 + 1).joined(separator: "\n") + "\n" } ?? recorded)
        daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path,
                                   environment: environment)
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// GET (or another method) `path`; `nil` when the connection failed.
    func request(_ path: String, method: HTTPRequest.Method = .get, headers: [HTTPHeader] = [],
                 body: [UInt8] = []) async -> PriceWatchCore.HTTPResponse? {
        try? await transport.send(HTTPRequest(method: method, url: base + path, headers: headers, body: body, timeout: .seconds(20)))
    }

    func text(_ path: String, headers: [HTTPHeader] = []) async -> String? {
        await request(path, headers: headers).map { String(decoding: $0.body, as: UTF8.self) }
    }

    /// Waits until this daemon's endpoint is bound (its own log line says so: another test's
    /// daemon that happened to take the same port must not pass for it) and answers `/healthz`.
    func waitUntilListening() async throws {
        let bound = { (line: String) in line.contains("Server started and listening on ") && line.hasSuffix(":\(self.port)") }
        try await waitUntil("the HTTP endpoint on port \(port) to answer; standard error: \(daemon.errorLines.suffix(5))") {
            if !daemon.isRunning { throw DaemonExited(lines: daemon.errorLines.suffix(10)) }
            guard daemon.errorLines.contains(where: bound) else { return false }
            return await request("/healthz") != nil
        }
    }

    struct DaemonExited: Error, CustomStringConvertible {
        let lines: ArraySlice<String>
        var description: String { "the daemon exited; standard error ends: \(lines.joined(separator: "\n"))" }
    }

    /// A TCP port on loopback nothing listens on now (bound to port 0, then released).
    /// A free port below the kernel's ephemeral range (32768 and up), for a daemon to listen
    /// on: once given back here, a port of the ephemeral range could go to any other socket of
    /// the busy test process (a client's local port) before the daemon binds it; this one only
    /// to another test drawing the same number.
    static func freePort() throws -> Int {
        for _ in 0..<50 {
            let port = UInt16.random(in: 20_000...32_000)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw PortError() }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = port.bigEndian
            let bound = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            if bound { return Int(port) }
        }
        throw PortError()
    }

    struct PortError: Error {}
}
