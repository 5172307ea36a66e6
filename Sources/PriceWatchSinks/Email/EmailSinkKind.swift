import PriceWatchCore

extension EmailSink {
    /// `type = "email"`: its keys and its factory.
    public static let kind = SinkKind(
        schema: AdapterSchema(type: "email", summary: "sends each alert as an email over SMTP", fields: [
            .init("url", .urlWithSchemes(["smtp", "smtps"]), required: true, "the SMTP server: smtp://HOST:PORT (STARTTLS) or smtps://HOST:PORT (implicit TLS)"),
            .init("from", .string, required: true, "the sender address, `alerts@example.com` or `Price Watch <alerts@example.com>`"),
            .init("to", .stringList, required: true, "the recipient addresses"),
            .init("username", .string, "the SMTP AUTH username"),
            .init("password", .secret, "the SMTP AUTH password: { file = ... }, { credential = ... } or { env = ... }"),
            .init("tls", .choice(["starttls", "none"]), "`starttls` (required) or `none` (plain smtp://, no AUTH)"),
            .init("timeout", .duration, default: .seconds(30), "the deadline of one SMTP session"),
            .init("ca_file", .existingFile, "a PEM file of CA certificates to trust instead of the system's"),
            .init("subject", .string, "the subject template of single-alert emails (default: the alert's message)"),
            .init("chart", .boolean, default: .boolean(false), "a chart of the symbol's recent prices, with the threshold and the alert marked, inline in single-alert emails"),
        ], check: { options in
            EmailSettings.parse(options).problems.map { AdapterSchema.Problem(key: $0.key, index: $0.index, message: $0.message) }
        }, shorthand: shorthand),
        make: { settings, context in
            guard let mail = context.mail else {
                return .error("this command cannot send email", table: "sinks.\(settings.name)", context: context)
            }
            let (email, problems) = EmailSettings.parse(settings.options)
            let charts = settings.options.boolean("chart") == true ? context.alertCharts : nil
            return AdapterBuild(email.map { EmailSink(name: settings.name, settings: $0, transport: mail, now: context.wallClock, charts: charts) },
                                diagnostics: problems.map { .error("sinks.\(settings.name).\($0)", path: context.mainFile) })
        })

    /// Apprise's `mailto://USER:PASSWORD@HOST:PORT?to=A,B&from=C` (STARTTLS) and `mailtos://`
    /// (STARTTLS, or implicit TLS on port 465 or with `mode=ssl`); `smtp=SERVER` names an SMTP
    /// server other than HOST. `from` defaults to `USER@HOST`, `to` to `from`. Apprise's table
    /// of well-known providers is not built in: write the SMTP server's own host.
    static let shorthand = URLShorthand(schemes: ["mailto", "mailtos"],
                                        examples: ["mailto://USER:PASSWORD@SMTPHOST:587?to=ADDRESS", "mailtos://USER:PASSWORD@HOST?smtp=SMTPHOST&from=A&to=B"]) {
        (url: ShorthandURL, origin: String) throws(ShorthandURL.Problem) -> AdapterOptions in
        let (host, port) = url.hostAndPort
        guard !host.isEmpty else { throw ShorthandURL.Problem("expected a host after '://', found none") }
        let server = url.queryValue("smtp") ?? host
        let implicit = url.scheme == "mailtos" && (port == 465 || url.queryValue("mode")?.lowercased() == "ssl")
        var options = AdapterOptions(["url": .string((implicit ? "smtps://" : "smtp://") + server + (port.map { ":\($0)" } ?? ""))])
        let user = url.user.flatMap { $0.isEmpty ? nil : $0 }
        if let user { options["username"] = .string(url.queryValue("user") ?? user) }
        if let password = url.password, !password.isEmpty { options["password"] = .secret(Secret(value: password, origin: origin)) }
        guard let from = url.queryValue("from") ?? user.map({ $0.contains("@") ? $0 : "\($0)@\(host)" }) else {
            throw ShorthandURL.Problem("expected a sender: USER@ before the host, or ?from=ADDRESS")
        }
        options["from"] = .string(from)
        let recipients = (url.queryValue("to") ?? from).split(separator: ",").map { $0.trimmingPrefix(" ") }
            .map { String($0.reversed().drop { $0 == " " }.reversed()) }.filter { !$0.isEmpty }
        options["to"] = .strings(recipients)
        return options
    }
}
