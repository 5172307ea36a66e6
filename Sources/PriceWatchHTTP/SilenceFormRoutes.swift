import Hummingbird
import PriceWatchCore

/// The silences page's forms (with `[http] token`, for a browser logged in at `/login`; the
/// token middleware lets nothing else through): `POST /silences` makes a silence from the
/// form's `target` (`rule` or `symbol`), `name`, `for` (a duration) and `comment`, checked
/// exactly as `POST /api/silences` checks its JSON (``SilenceRequest``); `POST
/// /silences/ID/expire` ends one. Each answers `303` back to `/silences` with what happened as
/// `?notice=` (shown on the page, escaped); a refused form says why the same way, with `400`
/// semantics kept in the notice rather than a bare error page.
enum SilenceFormRoutes {
    static let fields: Set<String> = ["target", "name", "for", "comment"]

    static func add<Context: RequestContext>(to router: Router<Context>, silences: any SilenceAdministration) {
        router.post("/silences") { request, _ -> Response in
            let now = silences.now()
            let form: FormBody
            do {
                form = try FormBody(Array(buffer: try await request.body.collect(upTo: FormBody.maximumBytes)))
            } catch let invalid as FormBody.Invalid {
                return back("not made: \(invalid.description)")
            } catch {
                return back("not made: the form is larger than \(FormBody.maximumBytes) bytes")
            }
            if let unknown = form.fields.keys.sorted().first(where: { !fields.contains($0) }) {
                return back("not made: unknown field \(ControlCharacters.shown(unknown))")
            }
            guard let target = form["target"], target == "rule" || target == "symbol" else {
                return back("not made: target: expected rule or symbol")
            }
            var json = "{" + JSONText.string(target) + ":" + JSONText.string(form["name"] ?? "")
                + ",\"for\":" + JSONText.string(form["for"] ?? "")
            if let comment = form["comment"], !comment.isEmpty { json += ",\"comment\":" + JSONText.string(comment) }
            json += "}"
            let parsed: SilenceRequest
            do {
                parsed = try SilenceRequest(body: Array(json.utf8), now: now)
            } catch {
                return back("not made: \(error)")
            }
            let silence = Silence(id: Silence.newID(), target: parsed.target, startsAt: now, endsAt: parsed.endsAt,
                                  comment: parsed.comment, createdAt: now)
            do {
                try await silences.add(silence)
            } catch {
                return back("not made: could not store the silence: \(error)")
            }
            let warning = await silences.unmatched(parsed.target).map { "; it matches nothing today: \($0)" } ?? ""
            return back("made silence \(silence.id) (\(silence.targetDescription))\(warning)")
        }
        router.post("/silences/:id/expire") { _, context -> Response in
            let id = context.parameters.get("id") ?? ""
            do {
                guard let silence = try await silences.expire(id: id, at: silences.now()) else {
                    return back("no silence has the id \(ControlCharacters.shown(id))")
                }
                return back("ended silence \(silence.id) (\(silence.targetDescription))")
            } catch {
                return back("could not end the silence: \(error)")
            }
        }
    }

    /// `303` to the page, with `notice` in its query.
    static func back(_ notice: String) -> Response {
        Response(status: .seeOther, headers: [.location: "/silences?notice=" + PercentEncoding.encoded(notice), .cacheControl: "no-store"])
    }
}
