/// Character checks shared by the configuration, the message builder and the transport.
public enum MailText {
    /// Whether `text` holds a CR, an LF or a NUL: the characters that would end an SMTP command
    /// or a header line early and let the rest be read as a command or header of its own.
    public static func hasLineBreakOrNUL(_ text: String) -> Bool {
        text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }

    /// Whether `text` holds any control character (C0 other than tab, DEL, or C1).
    public static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && scalar.value != 0x09) || (0x7F...0x9F).contains(scalar.value)
        }
    }

    /// Quotes `text` for a message, showing control characters as escapes so that the message
    /// itself stays one line (``ControlCharacters/quoted(_:)``).
    public static func quoted(_ text: String) -> String {
        ControlCharacters.quoted(text)
    }
}
