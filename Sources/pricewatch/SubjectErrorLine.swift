/// `SUBJECT: error: MESSAGE`, the line of a failure about one symbol, sink or query, without
/// the subject twice when the message already starts with it (`webhook/phone: ...` from the
/// sink, `NOPE: not in the replay file` from the replay provider): the message's text is
/// otherwise kept as it is.
enum SubjectErrorLine {
    static func text(subject: String, message: String) -> String {
        let prefix = subject + ": "
        let rest = message.hasPrefix(prefix) && message.count > prefix.count ? String(message.dropFirst(prefix.count)) : message
        return "\(subject): error: \(rest)"
    }
}
