import PriceWatchCore

extension DesktopNotificationSink {
    /// `type = "desktop"`: its keys and its factory.
    public static let kind = SinkKind(
        schema: AdapterSchema(type: "desktop", summary: "shows each alert as a desktop notification on the user's session D-Bus", fields: [
            .init("bus", .string, "the D-Bus address, `unix:path=/run/user/1000/bus`; default the user's session bus "
                  + "($DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus)"),
            .init("app_name", .string, "the application name the notification server shows, default `pricewatch`"),
        ]),
        make: { settings, context in
            AdapterBuild(DesktopNotificationSink(name: settings.name, address: settings.options.string("bus"),
                                                 appName: settings.options.string("app_name") ?? "pricewatch",
                                                 urgentRules: context.urgentRules))
        })
}
