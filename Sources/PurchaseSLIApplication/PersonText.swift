/// Text a person types into a record (a name, a reason): trimmed, printable, bounded, so that it is shown
/// as typed in every output and cannot hide or reorder what follows it.
enum PersonText {
    /// `text` without leading and trailing white space, when it is 1 to `maximum` Unicode scalars and has
    /// no control or format character (no line break, no bidirectional override); else nil.
    static func cleaned(_ text: String, maximum: Int) -> String? {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return nil }
        let trimmed = String(scalars[first...last])
        guard trimmed.unicodeScalars.count <= maximum,
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format })
        else { return nil }
        return trimmed
    }
}
