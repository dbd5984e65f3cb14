/// The rules every CSV file written here shares (`query --format csv` and the other commands' CSV, the
/// tables' files beside the pages), Unicode scalar by Unicode scalar (``Swift/StringProtocol/replacingScalars(_:)``).
enum CSVText {
    /// What a spreadsheet may read as the start of a formula (OWASP's CSV injection list: `=`, `+`, `-`,
    /// `@`, tab and carriage return), and the full-width forms of the first four, to be safe.
    private static let formulaStarts = "=+-@\t\r\u{FF1D}\u{FF0B}\u{FF0D}\u{FF20}".unicodeScalars

    /// Whether `text` starts a formula: its first Unicode scalar is one of ``formulaStarts``, whatever
    /// combines with it (`"=\u{0301}HYPERLINK(…)"` is one `Character` that is not `=`, but a spreadsheet
    /// reads the `=`).
    static func startsFormula(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.first.map(formulaStarts.contains) ?? false
    }

    /// `text` as an RFC 4180 quoted field: in double quotes, each double quote inside doubled.
    static func quoted(_ text: some StringProtocol) -> String {
        "\"" + text.replacingScalars { $0 == "\"" ? "\"\"" : nil } + "\""
    }
}
