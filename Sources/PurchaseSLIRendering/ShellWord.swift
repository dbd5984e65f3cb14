/// Words of a command line for a POSIX shell (sh, bash, zsh), so that a printed command runs as shown.
enum ShellWord {
    /// `word` as is when the shell would read it unchanged, else in single quotes (a quote inside
    /// becomes `'\''`, and `''` goes between two backticks, which the shell reads as nothing, so that no
    /// value can end the Markdown or Slack code around a printed command). Unicode scalar by scalar, as
    /// the shell reads bytes: a quote with a combining mark after it is one `Character` that is not `'`,
    /// and still ends the quoting.
    static func quoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || "@%+=:,./_-".unicodeScalars.contains(scalar)
            }
        guard !plain else { return word }
        var previous: Unicode.Scalar?
        let inside = word.replacingScalars { scalar in
            defer { previous = scalar }
            switch scalar {
            case "'": return "'\\''"
            case "`" where previous == "`": return "''`"
            default: return nil
            }
        }
        return "'" + inside + "'"
    }

    /// `--name value`, or `--name=value` as one word when the value's first scalar is `-`, which the
    /// command's parser would read as an option of its own (`"-\u{0301}x"` too: it sees the `-`).
    static func option(_ name: String, _ value: String) -> [String] {
        value.unicodeScalars.first == "-" ? ["--\(name)=\(value)"] : ["--\(name)", value]
    }
}
