/// How the service sinks quote a value a user wrote in their messages.
enum ServiceWording {
    /// `'text'`, or a description of it when it is long or has unprintable characters.
    static func quoted(_ text: String) -> String {
        if text.count <= 64, text.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) { return "'\(text)'" }
        return "a string of \(text.count) characters"
    }
}
