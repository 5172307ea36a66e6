import Hummingbird
import PriceWatchCore
import PriceWatchPresentation

/// `/api/silences`: add (`POST`), list the active ones (`GET`) and expire (`DELETE
/// /api/silences/ID`) the operator's silences, as `pricewatch silence` does.
///
/// Every route needs the bearer token, on loopback too: with no `token` in `[http]` they
/// answer 403, since anyone on the host could otherwise silence the alerts (the read-only pages
/// follow the loopback rule instead). Answers are JSON; errors are `{"error": "..."}` with a
/// message naming the member, what was expected and what was found. A silence of a rule id or
/// a symbol that no rule of the running configuration has is stored (the rule may come with a
/// reload) and its answer carries `"warning": "the silence matches nothing today: ..."`.
enum SilenceRoutes {
    static func add<Context: RequestContext>(to router: Router<Context>, silences: any SilenceAdministration, tokenConfigured: Bool) {
        let group = router.group("/api/silences")
        group.post { request, _ -> Response in
            if let refusal = refusal(tokenConfigured) { return refusal }
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: SilenceRequest.maximumBodyBytes)
            } catch {
                return json(error: "the body is larger than \(SilenceRequest.maximumBodyBytes) bytes", status: .contentTooLarge)
            }
            let now = silences.now()
            let parsed: SilenceRequest
            do {
                parsed = try SilenceRequest(body: Array(buffer: body), now: now)
            } catch {
                return json(error: "\(error)", status: .badRequest)
            }
            let silence = Silence(id: Silence.newID(), target: parsed.target, startsAt: now, endsAt: parsed.endsAt,
                                  comment: parsed.comment, createdAt: now)
            do {
                try await silences.add(silence)
            } catch {
                return json(error: "could not store the silence: \(error)", status: .internalServerError)
            }
            // Accepted all the same: the rule may come with the next reload.
            guard let unmatched = await silences.unmatched(parsed.target) else { return json(silence.json(now: now), status: .created) }
            let object = silence.json(now: now)
            return json(String(object.dropLast()) + ",\"warning\":" + JSONText.string("the silence matches nothing today: \(unmatched)") + "}",
                        status: .created)
        }
        group.get { _, _ -> Response in
            if let refusal = refusal(tokenConfigured) { return refusal }
            let now = silences.now()
            do {
                let active = try await silences.active(at: now)
                return json("{\"silences\":[" + active.map { $0.json(now: now) }.joined(separator: ",") + "]}")
            } catch {
                return json(error: "could not read the silences: \(error)", status: .internalServerError)
            }
        }
        group.delete(":id") { _, context -> Response in
            if let refusal = refusal(tokenConfigured) { return refusal }
            let id = context.parameters.get("id") ?? ""
            let now = silences.now()
            do {
                guard let silence = try await silences.expire(id: id, at: now) else {
                    return json(error: "no silence has the id \(JSONText.string(id))", status: .notFound)
                }
                return json(silence.json(now: now))
            } catch {
                return json(error: "could not expire the silence: \(error)", status: .internalServerError)
            }
        }
    }

    private static func refusal(_ tokenConfigured: Bool) -> Response? {
        tokenConfigured ? nil
            : json(error: "changing silences over HTTP needs a bearer token: set token in [http] (see docs/http.md)",
                   status: .forbidden)
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    static func json(error message: String, status: HTTPResponse.Status) -> Response {
        json("{\"error\":" + JSONText.string(message) + "}", status: status)
    }
}
