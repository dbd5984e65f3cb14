/// ArgumentParser takes time quadratic in the number of times an option is repeated (10,000 `--where`
/// took 15 s to parse). The command line is therefore rewritten before parsing: the values of every
/// `--where` of `query` go into one `--where` whose value holds them separated by NUL, which no argument
/// can contain, and `query` splits them again.
public enum RepeatedOptions {
    /// The separator of the joined values.
    static let separator: Character = "\u{0}"

    /// `arguments` (without the program name) with the repeated `--where` of `query` joined into one.
    public static func joiningWhere(_ arguments: [String]) -> [String] {
        guard arguments.first == "query" else { return arguments }
        var kept: [String] = []
        var values: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                kept += arguments[index...]
                break
            } else if argument == "--where", index + 1 < arguments.count {
                values.append(arguments[index + 1])
                index += 2
                continue
            } else if argument.hasPrefix("--where=") {
                values.append(String(argument.dropFirst("--where=".count)))
            } else {
                kept.append(argument)
            }
            index += 1
        }
        guard values.count > 1 else { return arguments }
        return kept + ["--where", values.joined(separator: String(separator))]
    }

    /// The values of one `--where` option as given, or as joined by ``joiningWhere(_:)``.
    static func splitting(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: separator, omittingEmptySubsequences: false).map(String.init) }
    }
}
