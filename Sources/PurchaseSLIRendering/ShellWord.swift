/// Words of a command line for a POSIX shell (sh, bash, zsh), so that a printed command runs as shown.
enum ShellWord {
    /// `word` as is when the shell would read it unchanged, else in single quotes (a quote inside
    /// becomes `'\''`).
    static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "@%+=:,./_-".unicodeScalars.contains(scalar)
        }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
