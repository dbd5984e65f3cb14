/// Text safe to print on a terminal: control and bidirectional-override characters become U+FFFD.
public enum TerminalText {
    /// `text` with control and bidirectional-override characters replaced by U+FFFD, Unicode scalar by
    /// scalar (so a combining mark after a control character cannot hide it).
    public static func sanitized(_ text: String) -> String {
        text.replacingScalars { scalar in
            let value = scalar.value
            let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
            let isBidi =
                (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E || value == 0x200F
                || value == 0x061C
            return isControl || isBidi ? "\u{FFFD}" : nil
        }
    }
}
