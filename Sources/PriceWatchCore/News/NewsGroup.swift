/// Several headlines as one notification (a sink's `group_wait`, `docs/events.md`): what the
/// dispatcher sends for a group of `news` deliveries. Pure.
///
/// The group keeps the id of its first (oldest) headline, as a group of alerts does, so a
/// retried group is the same message; its title names how many headlines and for which
/// symbols, its text lists each headline's title, source and time, and link, and its JSON
/// `data` is `{"headlines":[...]}` of each headline's own `data`.
public enum NewsGroup {
    public static func notification(of members: [OutgoingNotification]) -> OutgoingNotification? {
        guard let first = members.first else { return nil }
        var messages: [NotificationMessage] = []
        for member in members {
            guard case .message(let message) = member.content else { continue }
            messages.append(message)
        }
        guard messages.count > 1 else { return messages.isEmpty ? nil : first }
        var symbols: [String] = []
        for message in messages {
            let symbol = message.sections?.first?.title ?? ""
            if !symbol.isEmpty, !symbols.contains(symbol) { symbols.append(symbol) }
        }
        let title = "\(messages.count) headlines" + (symbols.isEmpty ? "" : ": " + symbols.joined(separator: ", "))
        let text = messages.map(\.text).joined(separator: "\n\n")
        let sections = messages.map { NotificationSection(title: $0.title, lines: Array(($0.sections?.first?.lines ?? []).dropFirst())) }
        let data = "{\"headlines\":[" + messages.compactMap(\.data).joined(separator: ",") + "]}"
        return OutgoingNotification(id: first.id, kind: .news, time: first.time,
                                    content: .message(NotificationMessage(title: title, text: text, sections: sections, data: data)))
    }
}
