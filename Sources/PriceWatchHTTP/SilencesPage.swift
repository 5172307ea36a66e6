import PriceWatchCore

/// The silences in force or still to come (`/silences`), as `pricewatch silence list` shows
/// them: each one's id, what it silences, from and until when, its comment and when it was
/// made. Read-only: silences are made and ended with `pricewatch silence` or `/api/silences`
/// (with the token), which the page says.
public enum SilencesPage {
    /// The page for `silences` (those in force at `now` or later), or `problem` when they
    /// could not be read.
    public static func page(_ silences: [Silence], problem: String? = nil, now: Timestamp) -> String {
        var body = "<section id=\"silences\"><h2>Silences</h2>\n"
        if let problem {
            body += "<p class=\"problem\">\(HTMLText.escaped(problem))</p>\n"
        } else if silences.isEmpty {
            body += "<p class=\"muted\">no silence is in force or planned</p>\n"
        } else {
            body += "<table><thead><tr><th scope=\"col\">Id</th><th scope=\"col\">Silences</th><th scope=\"col\">From</th>"
                + "<th scope=\"col\">Until</th><th scope=\"col\">Comment</th><th scope=\"col\">Made</th></tr></thead><tbody>\n"
            for silence in silences.sorted(by: { ($0.startsAt, $0.id) < ($1.startsAt, $1.id) }) {
                let state = silence.isActive(at: now) ? "" : " <span class=\"muted\">(not yet)</span>"
                body += "<tr><td class=\"id\">\(HTMLText.escaped(silence.id))</td>"
                    + "<td>\(HTMLText.escaped(silence.targetDescription))\(state)</td>"
                    + "<td>\(DashboardPage.timeElement(silence.startsAt, now: now))</td>"
                    + "<td>\(DashboardPage.timeElement(silence.endsAt, now: now))</td>"
                    + "<td>\(HTMLText.escaped(silence.comment))</td>"
                    + "<td>\(DashboardPage.timeElement(silence.createdAt, now: now))</td></tr>\n"
            }
            body += "</tbody></table>\n"
        }
        body += "<p class=\"muted\">Make and end silences with <code>pricewatch silence</code> or <code>/api/silences</code> "
            + "(with the endpoint's token): see docs/silences.md.</p></section>\n"
        return PageShell.html(title: "Silences · pricewatch", heading: "Silences", home: "./", style: style, main: body)
    }

    static let style = """
        .id{font-family:ui-monospace,monospace;white-space:nowrap}
        @media (max-width:600px){#silences thead{display:none}#silences table,#silences tbody,#silences tr,#silences td{display:block}
        #silences tr{border-bottom:1px solid var(--line);padding:.4rem 0}#silences td{border:0;padding:.1rem 0}}
        """
}
