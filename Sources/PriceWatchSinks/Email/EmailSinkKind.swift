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
        }),
        make: { settings, context in
            guard let mail = context.mail else {
                return .error("this command cannot send email", table: "sinks.\(settings.name)", context: context)
            }
            let (email, problems) = EmailSettings.parse(settings.options)
            let charts = settings.options.boolean("chart") == true ? context.alertCharts : nil
            return AdapterBuild(email.map { EmailSink(name: settings.name, settings: $0, transport: mail, now: context.wallClock, charts: charts) },
                                diagnostics: problems.map { .error("sinks.\(settings.name).\($0)", path: context.mainFile) })
        })
}
