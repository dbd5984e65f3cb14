import Foundation
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLIRendering

/// Escaping goes Unicode scalar by scalar in every format: every scalar of each ``JoiningClass`` is put
/// before, after and between the special characters of each format (`s`, special, `s`, special, special,
/// `s`), and the output must be inert in that format and give the text back. A comparison of `Character`s
/// would miss the special in `"\u{0600}<"` or `"<\u{0301}"`, which are one `Character` each.
@Suite struct GraphemeEscapingTests {
    /// `special` surrounded by `joiner`: before it, after it, between two of it, and after two in a row.
    private static func text(_ special: Unicode.Scalar, _ joiner: Unicode.Scalar) -> String {
        String(String.UnicodeScalarView([joiner, special, joiner, special, special, joiner]))
    }

    /// Every text of `specials` around every scalar of `joining`.
    private static func texts(_ specials: String, _ joining: JoiningClass) -> [String] {
        specials.unicodeScalars.flatMap { special in joining.scalars.map { text(special, $0) } }
    }

    /// HTML and SVG: no `<`, `>`, `"` or `'` in the output, each `&` begins one of the five references
    /// ``HTML/escape(_:)`` writes, and reading the references back gives the text.
    @Test(arguments: JoiningClass.all)
    func html(joining: JoiningClass) {
        var failures: [String] = []
        for text in Self.texts("&<>\"'", joining) {
            let escaped = HTML.escape(text)
            var read = ""
            var rest = escaped.unicodeScalars[...]
            var problem: String?
            while let scalar = rest.popFirst(), problem == nil {
                switch scalar {
                case "<", ">", "\"", "'": problem = "a raw \(scalar)"
                case "&":
                    let name = String(String.UnicodeScalarView(rest.prefix { $0 != ";" }))
                    guard let character = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "#39": "'"][name] else {
                        problem = "& begins no reference"
                        break
                    }
                    read += character
                    rest = rest.dropFirst(name.unicodeScalars.count + 1)
                default: read.unicodeScalars.append(scalar)
                }
            }
            if problem != nil || !read.unicodeScalars.elementsEqual(TerminalText.sanitized(text).unicodeScalars) {
                failures.append("\(text.debugDescription) → \(escaped.debugDescription): \(problem ?? "reads back otherwise")")
            }
        }
        Self.expectNone(failures)
    }

    /// Markdown: every punctuation scalar of the output is escaped by a backslash, and dropping the
    /// backslashes gives the text.
    @Test(arguments: JoiningClass.all)
    func markdown(joining: JoiningClass) {
        let punctuation = "\\`*_{}[]()#+-.!|<>~&\"'"
        var failures: [String] = []
        for text in Self.texts(punctuation, joining) {
            let escaped = TextEscaping.markdown.escape(text)
            var read = ""
            var rest = escaped.unicodeScalars[...]
            var raw: Unicode.Scalar?
            while let scalar = rest.popFirst() {
                if scalar == "\\", let next = rest.popFirst() {
                    read.unicodeScalars.append(next)
                } else {
                    if punctuation.unicodeScalars.contains(scalar) { raw = scalar }
                    read.unicodeScalars.append(scalar)
                }
            }
            if raw != nil || !read.unicodeScalars.elementsEqual(TerminalText.sanitized(text).unicodeScalars) {
                failures.append("\(text.debugDescription) → \(escaped.debugDescription)")
            }
        }
        Self.expectNone(failures)
    }

    /// Slack: one code span, no backtick inside it (one in the text becomes U+02CB), no `<` or `>`, each
    /// `&` one of the three entities; Slack shows the text back.
    @Test(arguments: JoiningClass.all)
    func slack(joining: JoiningClass) {
        var failures: [String] = []
        for text in Self.texts("&<>`", joining) {
            let escaped = TextEscaping.slack.escape(text)
            var inside = escaped.unicodeScalars[...]
            let delimited = inside.popFirst() == "`" && inside.popLast() == "`"
            let raw = inside.contains { "`<>".unicodeScalars.contains($0) }
            let shown = String(String.UnicodeScalarView(inside)).replacingScalarRuns([("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")])
            let expected = TerminalText.sanitized(text).unicodeScalars.map { $0 == "`" ? "\u{02CB}" : $0 }
            if !delimited || raw || !shown.unicodeScalars.elementsEqual(expected) {
                failures.append("\(text.debugDescription) → \(escaped.debugDescription)")
            }
        }
        Self.expectNone(failures)
    }

    /// Terminal text: no control or bidirectional-override scalar is left, each replaced one for one.
    @Test(arguments: JoiningClass.all)
    func terminal(joining: JoiningClass) {
        var failures: [String] = []
        for text in Self.texts("\u{07}\u{1B}\n\r\u{7F}\u{9B}\u{202E}\u{2066}\u{200F}\u{061C}", joining) {
            let safe = TerminalText.sanitized(text)
            let bad = safe.unicodeScalars.contains {
                $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
                    || (0x2066...0x2069).contains($0.value) || [0x200E, 0x200F, 0x061C].contains($0.value)
            }
            if bad || safe.unicodeScalars.count != text.unicodeScalars.count {
                failures.append("\(text.debugDescription) → \(safe.debugDescription)")
            }
        }
        Self.expectNone(failures)
    }

    /// Shell words: `/bin/sh` reads each quoted word back as the text (one `printf` of all the class's
    /// words, in a child process), and no word holds two backticks in a row, which would end the Markdown
    /// or Slack code around a printed command.
    @Test(arguments: JoiningClass.all)
    func shellWords(joining: JoiningClass) async throws {
        let texts = Self.texts("'`$\\\" ;|&()*?~#!<{=-", joining)
        let words = texts.map(ShellWord.quoted)
        Self.expectNone(
            zip(texts, words).filter { _, word in zip(word.unicodeScalars, word.unicodeScalars.dropFirst()).contains { $0 == "`" && $1 == "`" } }
                .map { "\($0.debugDescription) → \($1)" })
        let directory = try TemporaryDirectory()
        let script = directory.file("words.sh")
        try ("printf '%s\\0' " + words.joined(separator: " ") + "\n").write(toFile: script, atomically: false, encoding: .utf8)
        let (termination, output) = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), [script])
        #expect(termination == .exit(0), "\(output.prefix(500))")
        let read = output.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(read.count == texts.count)
        Self.expectNone(
            zip(texts, read).filter { !$0.unicodeScalars.elementsEqual($1.unicodeScalars) }
                .map { "\($0.debugDescription) came back from sh as \($1.debugDescription)" })
    }

    /// `--name value` joins a value whose first scalar is `-` to its option, whatever combines with it.
    @Test(arguments: JoiningClass.all)
    func shellOptions(joining: JoiningClass) {
        let values = joining.scalars.map { String(String.UnicodeScalarView(["-", $0, "x"])) }
        Self.expectNone(values.filter { ShellWord.option("product", $0) != ["--product=" + $0] }.map(\.debugDescription))
    }

    /// `query --format csv` (and the other commands' CSV): one well-formed RFC 4180 field, which starts with
    /// `'` when the text's first scalar starts a formula, and holds the text otherwise unchanged (control
    /// characters as U+FFFD).
    @Test(arguments: JoiningClass.all)
    func queryCSVCells(joining: JoiningClass) {
        var failures: [String] = []
        for text in Self.texts("=+-@\t\r,\"'\n", joining) + joining.scalars.flatMap(Self.formulas) {
            let cell = QueryOutput.csvCell(text)
            let field = CSVReading.field(cell)
            let safe = TerminalText.sanitized(text)
            let expected = (CSVText.startsFormula(safe) ? "'" : "") + safe
            if field?.unicodeScalars.elementsEqual(expected.unicodeScalars) != true || field.map(CSVText.startsFormula) != false {
                failures.append("\(text.debugDescription) → \(cell.debugDescription)")
            }
        }
        Self.expectNone(failures)
    }

    /// A page's tables as CSV files: read from the page's markup scalar by scalar (a cell whose text begins
    /// with a combining mark or ends with a prepended one is read whole), each cell one well-formed field,
    /// a formula quoted.
    @Test(arguments: JoiningClass.all)
    func pageTableCSV(joining: JoiningClass) throws {
        var failures: [String] = []
        for specials in ["=+-@", "<>&\"',"] {
            let texts = Self.texts(specials, joining) + (specials.hasPrefix("=") ? joining.scalars.flatMap(Self.formulas) : [])
            let rows = HTML.joined(texts.map { "<tr><td>\($0)</td><td data-value=\"\($0)\">x</td></tr>" })
            let page: HTML = "<h2>Cells</h2><table><tr><th>text</th><th>value</th></tr>\(rows)</table>"
            let file = try #require(TableCSV.attach(to: page.markup, pageName: "cells.html").files.first)
            let read = try #require(CSVReading.rows(file.text), "\(file.text.prefix(300).debugDescription)")
            #expect(read.first == ["text", "value"] && read.count == texts.count + 1)
            for (text, row) in zip(texts, read.dropFirst()) {
                let shown = TerminalText.sanitized(text).unicodeScalars.split(whereSeparator: \.properties.isWhitespace)
                    .map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
                let expected = [shown, TerminalText.sanitized(text)].map { (CSVText.startsFormula($0) ? "'" : "") + $0 }
                if row.map({ Array($0.unicodeScalars) }) != expected.map({ Array($0.unicodeScalars) }) {
                    failures.append("\(text.debugDescription) → \(row.debugDescription)")
                }
            }
        }
        Self.expectNone(failures)
    }

    /// One issue for all the texts a test found unsafe: how many, and the first few.
    private static func expectNone(_ failures: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        guard !failures.isEmpty else { return }
        Issue.record("\(failures.count) texts, first: \(failures.prefix(3).joined(separator: "; "))", sourceLocation: sourceLocation)
    }

    /// The formulas of the issue, and ones that start with a tab or a carriage return, with `joiner` after
    /// their first character: `=\u{0301}HYPERLINK(…)`.
    private static func formulas(_ joiner: Unicode.Scalar) -> [String] {
        ["=HYPERLINK(\"https://evil.example\")", "+SUM(1)", "@SUM(1)", "-2+3", "\tSUM(1)", "\rSUM(1)"].map { formula in
            var scalars = formula.unicodeScalars
            scalars.insert(joiner, at: scalars.index(after: scalars.startIndex))
            return String(scalars)
        }
    }
}

/// RFC 4180 read Unicode scalar by Unicode scalar, strictly: a quoted field ends with its quote, an
/// unquoted one holds no quote, comma or line end.
enum CSVReading {
    /// The value of `cell` when it is exactly one field, else nil.
    static func field(_ cell: String) -> String? {
        guard let rows = rows(cell + "\r\n"), rows.count == 1, rows[0].count == 1 else { return nil }
        return rows[0][0]
    }

    /// The rows of `text` (each ending in CRLF), or nil when it is not well formed.
    static func rows(_ text: String) -> [[String]]? {
        var rows: [[String]] = []
        var row: [String] = []
        var rest = text.unicodeScalars[...]
        while !rest.isEmpty {
            var field = String.UnicodeScalarView()
            if rest.first == "\"" {
                rest.removeFirst()
                while true {
                    guard let scalar = rest.popFirst() else { return nil }
                    if scalar == "\"" {
                        guard rest.first == "\"" else { break }
                        rest.removeFirst()
                    }
                    field.append(scalar)
                }
            } else {
                while let scalar = rest.first, scalar != ",", scalar != "\r" {
                    if scalar == "\"" || scalar == "\n" { return nil }
                    field.append(rest.removeFirst())
                }
            }
            row.append(String(field))
            switch rest.popFirst() {
            case ",": continue
            case "\r":
                guard rest.popFirst() == "\n" else { return nil }
                rows.append(row)
                row = []
            default: return nil
            }
        }
        return row.isEmpty ? rows : nil
    }
}
