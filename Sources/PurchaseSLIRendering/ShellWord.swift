/// Words of a command line for a POSIX shell (sh, bash, zsh), so that a printed command runs as shown.
enum ShellWord {
    /// `word` as is when the shell would read it unchanged, else in single quotes (a quote inside
    /// becomes `'\''`, and `''` goes between two backticks, which the shell reads as nothing, so that no
    /// value can end the Markdown or Slack code around a printed command).
    static func quoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || "@%+=:,./_-".unicodeScalars.contains(scalar)
            }
        guard !plain else { return word }
        var quoted = "'"
        var previous: Character?
        for character in word {
            if character == "'" {
                quoted += "'\\''"
            } else {
                if character == "`", previous == "`" { quoted += "''" }
                quoted.append(character)
            }
            previous = character
        }
        return quoted + "'"
    }

    /// `--name value`, or `--name=value` as one word when the value begins with `-`, which the command's
    /// parser would read as an option of its own.
    static func option(_ name: String, _ value: String) -> [String] {
        value.hasPrefix("-") ? ["--\(name)=\(value)"] : ["--\(name)", value]
    }
}
