/// Text placed in HTML, in an element or a quoted attribute: `&`, `<`, `>`, `"` and `'`
/// become entities, so no value (a rule id, an alert message, a provider's error) can open
/// a tag or close an attribute.
public enum HTMLText {
    /// `text` with its markup characters as entities.
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
