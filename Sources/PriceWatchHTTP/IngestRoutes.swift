import Hummingbird
import PriceWatchCore

/// `POST /api/ingest/tradingview`: relays a TradingView alert's webhook body to the sinks of
/// `[ingest.tradingview]`, durably (docs/http.md, "Relaying TradingView alerts").
///
/// The body is checked (``IngestBody``), stored in the outbox as a notification of kind
/// `external` with one delivery per sink in one transaction, and only then answered `200`:
/// a crash after the answer loses nothing. Nothing is sent in the request: the dispatcher
/// delivers later, woken by its doorbell, with silences, quiet hours, retries and dead letters
/// as for any notification.
///
/// Needs the bearer token, as a header or as `?token=` (TradingView cannot set headers); with
/// no `token` in `[http]` the route answers 403. A client's retry adds nothing: the
/// notification's id comes from the `Idempotency-Key` header when given, otherwise from the
/// body and the minute it was received in (``ExternalMessage/notificationID(route:body:receivedAt:idempotencyKey:)``).
enum IngestRoutes {
    static func add<Context: RequestContext>(to router: Router<Context>, outbox: any IngestOutbox, tokenConfigured: Bool) {
        let group = router.group("/api/ingest")
        for route in IngestRouteSettings.knownRoutes {
            group.post(RouterPath(route)) { request, _ -> Response in
                guard tokenConfigured else {
                    return SilenceRoutes.json(error: "relaying messages over HTTP needs a bearer token: set token in [http] (see docs/http.md)",
                                              status: .forbidden)
                }
                let bytes: ByteBuffer
                do {
                    bytes = try await request.body.collect(upTo: SilenceRequest.maximumBodyBytes)
                } catch {
                    return SilenceRoutes.json(error: "the body is larger than \(SilenceRequest.maximumBodyBytes) bytes", status: .contentTooLarge)
                }
                return await relay(route: route, body: Array(buffer: bytes), contentType: request.headers[.contentType],
                                   idempotencyKey: idempotencyKey(request.headers), outbox: outbox)
            }
        }
    }

    /// The `Idempotency-Key` header's value, if the request has one.
    static func idempotencyKey(_ headers: HTTPFields) -> String? {
        headers.first { $0.name.canonicalName == "idempotency-key" }?.value
    }

    static func relay(route name: String, body: [UInt8], contentType: String?, idempotencyKey: String?,
                      outbox: any IngestOutbox) async -> Response {
        let parsed: IngestBody
        let key: String?
        do {
            parsed = try IngestBody(bytes: body, contentType: contentType)
            key = try IngestBody.idempotencyKey(idempotencyKey)
        } catch {
            return SilenceRoutes.json(error: error.description, status: .badRequest)
        }
        guard let route = await outbox.route(named: name) else {
            return SilenceRoutes.json(error: "no [ingest.\(name)] table in the configuration; add one with notify = [\"SINK\"] (see docs/http.md)",
                                      status: .notFound)
        }
        let now = outbox.now()
        let id = ExternalMessage.notificationID(route: name, body: parsed.text, receivedAt: now, idempotencyKey: key)
        let message = ExternalMessage(route: name, title: route.title, body: parsed.text, isJSON: parsed.isJSON)
        let notification = OutgoingNotification(id: id, time: now, content: message)
        let added: Bool
        do {
            added = try await outbox.store(notification, sinks: route.notify)
        } catch {
            return SilenceRoutes.json(error: "could not store the message: \(error)", status: .serviceUnavailable)
        }
        return SilenceRoutes.json("{\"id\":" + JSONText.string(id) + ",\"status\":" + JSONText.string(added ? "queued" : "duplicate")
                                  + ",\"sinks\":[" + route.notify.map(JSONText.string).joined(separator: ",") + "]}")
    }
}
