import Foundation
import PriceWatchTestKit
import Testing

/// `pricewatch run` delivering to Telegram sinks through the outbox: the real binary, its
/// libcurl transport, a loopback Bot API server. Flood control (429 with
/// `parameters.retry_after`) is retried until Telegram accepts; a chat Telegram does not know
/// is a dead letter at once. The token, which Telegram's answers echo here, appears neither in
/// the daemon's output nor in `pricewatch alerts`.
@Suite(.serialized) struct TelegramDeliveryTests {
    static let token = "5820417396:AAGx7TqWm2Lr9VbPz_kJc4NdYe-Fh8sUo3Q"

    static func leaked(_ lines: [String]) -> [String] {
        let characters = Array(token)
        let pieces = (0...(characters.count - 8)).map { String(characters[$0..<($0 + 8)]) }
        return lines.filter { line in pieces.contains { line.contains($0) } }
    }

    @Test func floodControlIsRetriedAndAnUnknownChatIsADeadLetter() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let phoneAnswers = ServiceCounter()
        server.route("POST", "/bot\(Self.token)/sendMessage") { request in
            if request.bodyText.contains("@nobody") {
                return .json(#"{"ok":false,"error_code":400,"description":"Bad Request: chat not found (bot \#(Self.token))"}"#, status: 400)
            }
            if phoneAnswers.next() == 0 {
                return .json(#"{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 1 for \#(Self.token)","parameters":{"retry_after":1}}"#,
                             status: 429)
            }
            return .json(#"{"ok":true,"result":{"message_id":9}}"#)
        }
        let directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            interval = "1s"
            [providers.replay]
            type = "replay"
            file = "prices.csv"
            [sinks.phone]
            url = { file = "telegram.url" }
            api_url = "\(server.baseURL)"
            [sinks.nobody]
            type = "telegram"
            token = { file = "telegram.token" }
            chat = "@nobody"
            api_url = "\(server.baseURL)"
            """)
        try directory.write("telegram.url", "tgram://\(Self.token)/42\n")
        try directory.write("telegram.token", Self.token + "\n")
        for file in ["telegram.url", "telegram.token"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory.file(file))
        }
        try directory.write("prices.csv", "symbol,time,price,currency\nX,1727875800,10,USD\nX,1727875860,20.5,USD\n")
        try directory.write("rules.d/x.toml", "[[rule]]\nid = \"x-crosses-15\"\nsymbol = \"X\"\ncrosses = 15\nnotify = [\"phone\", \"nobody\"]\n")

        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        let requests = try await server.waitForRequests(count: 3)
        #expect(try await daemon.stop() == 0, "\(daemon.errorLines)")
        #expect(requests.count == 3, "one refused chat, one flood-controlled attempt and its retry: \(requests.map(\.path))")
        #expect(Self.leaked(daemon.outputLines + daemon.errorLines).isEmpty, "\(Self.leaked(daemon.outputLines + daemon.errorLines))")

        let alerts = try await CommandRunner.run(["alerts", "--config", "pricewatch.toml"], in: directory.path)
        #expect(alerts.status == 0, "\(alerts.standardError)")
        let text = alerts.outputLines.joined(separator: "\n")
        // The URL is a secret, which `alerts` does not read: the sink shows by its name.
        #expect(text.contains("  phone: delivered") && text.contains("(2 attempts)"), "\(text)")
        #expect(text.contains("telegram/nobody: dead (1 attempt"), "\(text)")
        #expect(text.contains("Bad Request: chat not found"), "\(text)")
        #expect(Self.leaked(alerts.outputLines + alerts.errorLines).isEmpty, "\(text)")
    }
}
