// Reading text Unicode scalar by Unicode scalar, as the tests' readers of each format do (a `Character` may
// hold a special character and the mark joined to it).

/// Whether `text` holds one of `scalars` that no backslash escapes.
func hasUnescapedScalar(_ text: some StringProtocol, of scalars: String) -> Bool {
    var escaped = false
    for scalar in text.unicodeScalars {
        if !escaped, scalars.unicodeScalars.contains(scalar) { return true }
        escaped = !escaped && scalar == "\\"
    }
    return false
}

/// Whether `text` holds two backticks in a row.
func hasTwoBackticks(_ text: some StringProtocol) -> Bool {
    zip(text.unicodeScalars, text.unicodeScalars.dropFirst()).contains { $0 == "`" && $1 == "`" }
}

extension String {
    /// The text with each of `replacements`' first texts replaced by the second, scanned scalar by scalar:
    /// how Slack and browsers show entities.
    func replacingScalarRuns(_ replacements: [(String, String)]) -> String {
        var shown = ""
        var rest = unicodeScalars[...]
        scan: while !rest.isEmpty {
            for (entity, character) in replacements where rest.starts(with: entity.unicodeScalars) {
                shown += character
                rest = rest.dropFirst(entity.unicodeScalars.count)
                continue scan
            }
            shown.unicodeScalars.append(rest.removeFirst())
        }
        return shown
    }
}
