import PriceWatchCore

/// The silences in force or still to come (`/silences`), as `pricewatch silence list` shows
/// them: each one's id, what it silences, from and until when, its comment and when it was
/// made. With the endpoint's token (`editable`, for a browser logged in at `/login`) a form
/// makes a silence and each silence has a button that ends it; otherwise the page is read-only
/// and says how silences are made (`pricewatch silence`, `/api/silences`).
public enum SilencesPage {
    /// The page for `silences` (those in force at `now` or later), or `problem` when they
    /// could not be read; `notice`: what the last form did (shown escaped).
    public static func page(_ silences: [Silence], problem: String? = nil, now: Timestamp, editable: Bool = false,
                            notice: String? = nil) -> String {
        var body = "<section id=\"silences\"><h2>Silences</h2>\n"
        if let notice, !notice.isEmpty { body += "<p class=\"notice\" role=\"status\">\(HTMLText.escaped(notice))</p>\n" }
        if let problem {
            body += "<p class=\"problem\">\(HTMLText.escaped(problem))</p>\n"
        } else if silences.isEmpty {
            body += "<p class=\"muted\">no silence is in force or planned</p>\n"
        } else {
            body += "<table><thead><tr><th scope=\"col\">Id</th><th scope=\"col\">Silences</th><th scope=\"col\">From</th>"
                + "<th scope=\"col\">Until</th><th scope=\"col\">Comment</th><th scope=\"col\">Made</th>"
                + (editable ? "<th scope=\"col\"><span class=\"visually-hidden\">End</span></th>" : "") + "</tr></thead><tbody>\n"
            for silence in silences.sorted(by: { ($0.startsAt, $0.id) < ($1.startsAt, $1.id) }) {
                let state = silence.isActive(at: now) ? "" : " <span class=\"muted\">(not yet)</span>"
                body += "<tr><td class=\"id\">\(HTMLText.escaped(silence.id))</td>"
                    + "<td>\(HTMLText.escaped(silence.targetDescription))\(state)</td>"
                    + "<td>\(DashboardPage.timeElement(silence.startsAt, now: now))</td>"
                    + "<td>\(DashboardPage.timeElement(silence.endsAt, now: now))</td>"
                    + "<td>\(HTMLText.escaped(silence.comment))</td>"
                    + "<td>\(DashboardPage.timeElement(silence.createdAt, now: now))</td>"
                    + (editable ? "<td><form method=\"post\" action=\"/silences/\(HTMLText.escaped(PercentEncoding.encoded(silence.id)))/expire\">"
                        + "<button type=\"submit\">End</button></form></td>" : "")
                    + "</tr>\n"
            }
            body += "</tbody></table>\n"
        }
        if editable {
            body += """
                <form method="post" action="/silences" class="new-silence"><fieldset><legend>New silence</legend>
                <label>Silence <select name="target"><option value="rule">rule</option><option value="symbol">symbol</option></select></label>
                <label>named <input name="name" required placeholder="aapl-above-200"></label>
                <label>for <input name="for" required placeholder="2h" size="6"></label>
                <label>comment <input name="comment" placeholder="deploy"></label>
                <button type="submit">Silence</button></fieldset></form>
                <p class="muted">A form that does not work here: <a href="/login">log in</a> with the endpoint's token.</p>

                """
        }
        body += "<p class=\"muted\">Make and end silences with <code>pricewatch silence</code> or <code>/api/silences</code> "
            + "(with the endpoint's token): see docs/silences.md.</p></section>\n"
        return PageShell.html(title: "Silences · pricewatch", heading: "Silences", home: "./", style: style, main: body)
    }

    static let style = """
        .id{font-family:ui-monospace,monospace;white-space:nowrap}.notice{font-weight:600}
        .new-silence fieldset{border:1px solid var(--line);display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
        .new-silence input{max-width:100%}
        @media (max-width:600px){#silences thead{display:none}#silences table,#silences tbody,#silences tr,#silences td{display:block}
        #silences tr{border-bottom:1px solid var(--line);padding:.4rem 0}#silences td{border:0;padding:.1rem 0}}
        """
}
