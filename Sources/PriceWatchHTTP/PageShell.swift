import PriceWatchCore

/// The frame every page of the endpoint shares: the document head (viewport, colour schemes,
/// no external asset), the dashboard's style plus the page's own, a header with the link to
/// the dashboard, the page's main content and its script.
enum PageShell {
    /// A whole page. `home` leads from the page to the dashboard (`./`, `../`); nil on the
    /// dashboard itself, whose header is its title.
    static func html(title: String, heading: String, home: String?, style: String = "", headerExtra: String = "",
                     bodyAttributes: String = "", main: String, mainID: String? = nil, script: String = localTimesScript) -> String {
        let homeLink = home.map { "<a href=\"\($0)\" class=\"home\">pricewatch</a>" } ?? ""
        let headingText = heading.isEmpty ? "" : "<h1>\(HTMLText.escaped(heading))</h1>"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <link rel="icon" href="data:,">
            <title>\(HTMLText.escaped(title))</title>
            <style>\(DashboardPage.style)\(commonStyle)\(style)</style>
            </head>
            <body\(bodyAttributes)>
            <header>\(homeLink)\(headingText)\(headerExtra)</header>
            <main\(mainID.map { " id=\"\($0)\"" } ?? "")>
            \(main)</main>
            <script>\(script)</script>
            </body>
            </html>

            """
    }

    static let commonStyle = """
        .home{color:inherit;font-weight:600;text-decoration:none}
        .totals{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:.5rem 1rem;margin:.5rem 0}
        .totals dt{color:var(--muted);font-size:.85rem}.totals dd{margin:0;font-weight:600;font-variant-numeric:tabular-nums}
        .chart-figure{margin:0}.chart{display:block;max-width:100%;height:auto}.chart-dark{display:none}
        @media (prefers-color-scheme: dark){.chart-light{display:none}.chart-dark{display:block}}
        .chart.chart-narrow{display:none}
        @media (max-width:600px){.chart{display:none}.chart.chart-narrow.chart-light{display:block}}
        @media (max-width:600px) and (prefers-color-scheme: dark){.chart.chart-narrow.chart-light{display:none}.chart.chart-narrow.chart-dark{display:block}}
        """

    /// One name and value of a `<dl>` of figures (`class="totals"` or `"facts"`); `value` is markup.
    static func fact(_ name: String, _ value: String) -> String {
        "<div><dt>\(HTMLText.escaped(name))</dt><dd>\(value)</dd></div>"
    }

    /// Shows every `<time datetime>` in the viewer's zone with the zone named (`26 Nov, 13:09
    /// CET`); `localTime` and `localTimes` are there for a page's own script to use.
    static let localTimeFunctions = """
          var local=window.Intl?new Intl.DateTimeFormat(undefined,{day:'numeric',month:'short',hour:'2-digit',minute:'2-digit',hourCycle:'h23',timeZoneName:'short'}):null;
          function localTime(text){var d=new Date(text);return local&&!isNaN(d)?local.format(d):text;}
          function localTimes(){
            if(!local){return;}
            document.querySelectorAll('time[datetime]').forEach(function(t){t.textContent=localTime(t.getAttribute('datetime'));});
          }
          localTimes();
        """

    /// The script of a page that needs nothing but its times in the viewer's zone.
    static let localTimesScript = "(function(){\n" + localTimeFunctions + "})();\n"
}
