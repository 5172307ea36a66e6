/// Going on after a syntax error, for a check that reports every bad line of a file at once:
/// skip to the next line that starts with a table header and parse from there, into a table
/// of its own so that what the document was parsed into before the error stays exactly as it
/// was.
extension TOMLByteReader {
    /// The syntax errors after `first`, from the cursor (where `first` was thrown) to the end
    /// of the document, at most `TOMLLimits.maximumErrors` in all with `first`. None after an
    /// encoding or limit error: the rest of such a document cannot be read meaningfully.
    mutating func laterErrors(after first: TOMLError) -> [TOMLError] {
        guard first.kind == .syntax else { return [] }
        // Headers after the error may repeat or extend what the broken part defined; in a
        // table of their own they are checked against each other only.
        let scratch = TOMLTable(origin: .root)
        var errors: [TOMLError] = []
        while errors.count + 1 < limits.maximumErrors, resynchronise() {
            do {
                try parseLines(into: scratch)
                return errors
            } catch {
                errors.append(error)
                if error.kind != .syntax { return errors }
            }
        }
        return errors
    }

    /// Moves the cursor past the end of the current line to the start of the next line that
    /// starts with `[`; false at the end of the document. Always moves forward.
    mutating func resynchronise() -> Bool {
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            if byte == Self.lineFeed {
                line += 1
                lineStart = offset
                if peekIs("[") { return true }
            }
        }
        return false
    }
}
