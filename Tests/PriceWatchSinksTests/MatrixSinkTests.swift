import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchSinks
import PriceWatchTestKit
import Testing

/// The Matrix sink over the real libcurl transport against a loopback homeserver that checks
/// each request as the client-server API documents it: `PUT
/// /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId}`, `Authorization: Bearer`,
/// the event's fields, the same transaction id on a retry, and `M_LIMIT_EXCEEDED`.
@Suite struct MatrixSinkTests {
    static let token = "syt_cHJpY2V3YXRjaA_XyZaBcDeFgHiJkLmN_0a1B2c"
    static let room = "!AbCdEfGhIj:example.org"
    static let roomPath = "/_matrix/client/v3/rooms/%21AbCdEfGhIj%3Aexample.org/send/m.room.message/"
    let transport = CurlHTTPTransport()

    func sink(_ server: LoopbackHTTPServer, room: String = Self.room, chart: Bool = false, charts: (any AlertChartProvider)? = nil,
              urgentRules: Set<String> = []) throws -> MatrixSink {
        try MatrixSink(name: "room", settings: MatrixSettings(homeserver: server.baseURL, room: room, accessToken: Self.token, chart: chart),
                       transport: transport, charts: charts, urgentRules: urgentRules)
    }

    static func eventRoute(_ server: LoopbackHTTPServer, _ answers: [LoopbackResponse]) {
        let next = ServiceSinkSupport.Counter()
        server.setFallback { request in
            guard request.method == "PUT", request.path.hasPrefix(roomPath) else { return .status(404) }
            return answers[min(next.next(), answers.count - 1)]
        }
    }

    @Test func aNoticeWithHTMLAndATransactionIdFromTheAlert() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        Self.eventRoute(server, [.json(#"{"event_id":"$YUwRidLecu:example.org"}"#)])
        try await sink(server).deliver(WebhookFixtures.fall)
        let request = try #require(server.requests.first)
        #expect(request.method == "PUT")
        #expect(request.path == Self.roomPath + "pricewatch-" + WebhookFixtures.fall.id)
        #expect(request.header("Authorization") == "Bearer \(Self.token)")
        #expect(request.header("Content-Type") == "application/json")
        let event = try ServiceSinkSupport.json(request)
        #expect(event["msgtype"] as? String == "m.notice")
        #expect(event["body"] as? String == "AAPL fall 3% from previous close\nAAPL fell 3.00% to 219.42 € <now> & \"more\"\nsecond line")
        #expect(event["format"] as? String == "org.matrix.custom.html")
        #expect(event["formatted_body"] as? String
            == "<strong>AAPL fall 3% from previous close</strong><br>AAPL fell 3.00% to 219.42 € &lt;now&gt; &amp; &quot;more&quot;<br>second line")
    }

    @Test func urgentRulesSendText() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        Self.eventRoute(server, [.json(#"{"event_id":"$1"}"#)])
        try await sink(server, urgentRules: ["btc-100k"]).deliver(WebhookFixtures.crossing)
        #expect(try ServiceSinkSupport.json(try #require(server.requests.first))["msgtype"] as? String == "m.text")
    }

    @Test func aRetryReusesTheTransactionAfterTheRateLimit() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        Self.eventRoute(server, [
            .json(#"{"errcode":"M_LIMIT_EXCEEDED","error":"Too many requests","retry_after_ms":2500}"#, status: 429),
            .json(#"{"event_id":"$2"}"#),
        ])
        let sink = try sink(server)
        let limited = await ServiceSinkSupport.attempt { () async throws(SinkError) in try await sink.deliver(WebhookFixtures.fall) }
        #expect(limited == SinkError(retryable: true, "matrix/room: \(server.baseURL) answered HTTP 429: M_LIMIT_EXCEEDED: Too many requests (retry after 3s)",
                                     retryAfterSeconds: 3))
        #expect(await ServiceSinkSupport.attempt { () async throws(SinkError) in try await sink.deliver(WebhookFixtures.fall) } == nil)
        let paths = server.requests.map(\.path)
        #expect(paths.count == 2 && Set(paths).count == 1)
        // A group keeps its own transaction id, the same on a retry.
        try await sink.deliver([WebhookFixtures.fall, WebhookFixtures.crossing])
        try await sink.deliver([WebhookFixtures.fall, WebhookFixtures.crossing])
        let groups = server.requests.dropFirst(2).map(\.path)
        #expect(groups.count == 2 && Set(groups).count == 1 && groups.first != paths.first)
    }

    @Test func notInTheRoomIsPermanent() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        Self.eventRoute(server, [.json(#"{"errcode":"M_FORBIDDEN","error":"User @bot:example.org not in room"}"#, status: 403)])
        let built = try sink(server)
        let error = await ServiceSinkSupport.attempt { () async throws(SinkError) in try await built.deliver(WebhookFixtures.fall) }
        #expect(error == SinkError(retryable: false, "matrix/room: \(server.baseURL) answered HTTP 403: M_FORBIDDEN: User @bot:example.org not in room"))
    }

    @Test func anEchoedAccessTokenNeverReachesTheError() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        Self.eventRoute(server, [
            .json(#"{"errcode":"M_UNKNOWN_TOKEN","error":"Unknown access token \#(Self.token)","soft_logout":false}"#, status: 401),
            .text("upstream said: Authorization: Bearer \(Self.token.prefix(20))", status: 502),
        ])
        let sink = try sink(server)
        for _ in 0..<2 {
            let error = try #require(await ServiceSinkSupport.attempt { () async throws(SinkError) in try await sink.deliver(WebhookFixtures.fall) })
            ServiceSinkSupport.expectNoSecret(error.message, Self.token)
        }
        ServiceSinkSupport.expectNoSecret("\(sink) \(sink.builder)", Self.token)
    }

    /// `chart = true`: the message, then the chart uploaded to the media repository
    /// (`POST /_matrix/media/v3/upload`) and sent as `m.image` with the `mxc://` URI.
    @Test func theChartIsUploadedAndSentAsAnImage() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        Self.eventRoute(server, [.json(#"{"event_id":"$3"}"#)])
        server.route("POST", "/_matrix/media/v3/upload") { request in
            guard request.header("Content-Type") == "image/png", request.header("Authorization") == "Bearer \(Self.token)",
                  request.queryValue("filename") == "chart-BTC-USD.png", request.body == ServiceSinkSupport.png else { return .status(400) }
            return .json(#"{"content_uri":"mxc://example.org/ChArT"}"#)
        }
        let sink = try sink(server, chart: true, charts: ServiceSinkSupport.FixedChart(png: ServiceSinkSupport.png))
        try await sink.deliver(WebhookFixtures.crossing)
        let requests = server.requests
        try #require(requests.count == 3)
        #expect(requests.map(\.method) == ["PUT", "POST", "PUT"])
        #expect(requests[0].path == Self.roomPath + "pricewatch-" + WebhookFixtures.crossing.id)
        #expect(requests[1].path == "/_matrix/media/v3/upload")
        #expect(requests[2].path == Self.roomPath + "pricewatch-" + WebhookFixtures.crossing.id + "-chart")
        let image = try ServiceSinkSupport.json(requests[2])
        #expect(image["msgtype"] as? String == "m.image")
        #expect(image["url"] as? String == "mxc://example.org/ChArT")
        #expect(image["body"] as? String == "chart-BTC-USD.png")
        let info = image["info"] as? [String: Any]
        #expect(info?["mimetype"] as? String == "image/png")
        #expect(info?["size"] as? Int == ServiceSinkSupport.png.count)
    }

    /// A digest's charts follow its message, each uploaded and sent as its own `m.image`.
    @Test func aDigestsChartsFollowItsMessage() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        Self.eventRoute(server, [.json(#"{"event_id":"$6"}"#)])
        let uploads = ServiceSinkSupport.Counter()
        server.route("POST", "/_matrix/media/v3/upload") { _ in .json(#"{"content_uri":"mxc://example.org/u\#(uploads.next())"}"#) }
        let digest = ServiceSinkSupport.digest()
        try await sink(server).deliver(digest)
        let requests = server.requests
        #expect(requests.map(\.method) == ["PUT", "POST", "PUT", "POST", "PUT"])
        let events = requests.filter { $0.method == "PUT" }
        #expect(events.map(\.path) == ["", "-image-1", "-image-2"].map { Self.roomPath + "pricewatch-" + digest.id + $0 })
        #expect(try ServiceSinkSupport.json(events[0])["body"] as? String == "Morning digest\nAAPL +2.10%\nMSFT -0.40%")
        #expect(try ServiceSinkSupport.json(events[2])["url"] as? String == "mxc://example.org/u1")
        #expect(try ServiceSinkSupport.json(events[2])["body"] as? String == "chart-MSFT.png")
    }

    @Test func aFailedUploadFailsTheDeliveryAndTheRetryReusesTheMessagesTransaction() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        Self.eventRoute(server, [.json(#"{"event_id":"$4"}"#)])
        server.route("POST", "/_matrix/media/v3/upload", sequence: [
            .json(#"{"errcode":"M_TOO_LARGE","error":"Cannot upload files larger than 50 MB"}"#, status: 413),
            .json(#"{"content_uri":"mxc://example.org/Again"}"#),
        ])
        let sink = try sink(server, chart: true, charts: ServiceSinkSupport.FixedChart(png: ServiceSinkSupport.png))
        let error = await ServiceSinkSupport.attempt { () async throws(SinkError) in try await sink.deliver(WebhookFixtures.crossing) }
        #expect(error == SinkError(retryable: false, "matrix/room: \(server.baseURL) answered HTTP 413: M_TOO_LARGE: Cannot upload files larger than 50 MB"))
        try await sink.deliver(WebhookFixtures.crossing)
        let events = server.requests.filter { $0.method == "PUT" }.map(\.path)
        #expect(events.count == 3)
        #expect(events[0] == events[1], "the message's retry is the same transaction")
        #expect(events[2].hasSuffix("-chart"))
    }

    /// A room written as an alias: resolved once through the room directory
    /// (`GET /_matrix/client/v3/directory/room/{alias}`), then every event goes to the id.
    @Test func anAliasIsResolvedOnceThroughTheRoomDirectory() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        Self.eventRoute(server, [.json(#"{"event_id":"$5"}"#)])
        server.route("GET", "/_matrix/client/v3/directory/room/%23prices%3Aexample.org") { _ in
            .json(#"{"room_id":"\#(Self.room)","servers":["example.org"]}"#)
        }
        let sink = try sink(server, room: "#prices:example.org")
        try await sink.deliver(WebhookFixtures.fall)
        try await sink.deliver(WebhookFixtures.crossing)
        #expect(server.requests.map(\.method) == ["GET", "PUT", "PUT"])
        #expect(server.requests.dropFirst().allSatisfy { $0.path.hasPrefix(Self.roomPath) })
    }

    @Test func anUnknownAliasIsPermanent() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/_matrix/client/v3/directory/room/%23gone%3Aexample.org") { _ in
            .json(#"{"errcode":"M_NOT_FOUND","error":"Room alias #gone:example.org not found"}"#, status: 404)
        }
        let sink = try sink(server, room: "#gone:example.org")
        let error = await ServiceSinkSupport.attempt { () async throws(SinkError) in try await sink.deliver(WebhookFixtures.fall) }
        #expect(error == SinkError(retryable: false, "matrix/room: \(server.baseURL) answered HTTP 404: M_NOT_FOUND: Room alias #gone:example.org not found"))
        #expect(server.requests.count == 1)
    }
}
