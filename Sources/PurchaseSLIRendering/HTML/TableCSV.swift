import Foundation

/// Every table of a page as a CSV file written next to it, with a link after the table: the same numbers
/// the page shows (a cell's `data-value`, the unformatted number, when it has one; else its text). A
/// chart's data is such a table too (``TimeSeriesChart``), so each chart has its CSV beside it.
public enum TableCSV {
    /// A CSV file to write beside a page.
    public struct File: Sendable, Hashable {
        /// Its name: the page's, `.table-`, the table's number and its heading (lowercase letters, digits and
        /// `-`).
        public var name: String
        /// RFC 4180 text, CRLF line ends.
        public var text: String
    }

    /// `html` with a "CSV" link after each table, and the files the links name. `pageName` is the page's
    /// file name (`oncall.html`); the files are `oncall.table-1-purchase.csv` and so on (``isFile(_:of:)``).
    /// The markup is read Unicode scalar by scalar, as a browser reads it: event text that starts with a
    /// combining mark makes one `Character` with the `>` before it, and text that ends with a prepended
    /// mark one with the `<` after it, which a search by `Character` would miss.
    public static func attach(to html: String, pageName: String) -> (html: String, files: [File]) {
        let base = pageName.hasSuffix(".html") ? String(pageName.dropLast(5)) : pageName
        var output = ""
        var files: [File] = []
        var rest = html.unicodeScalars[...]
        // The heading in force: the last one before the table, looked for only in what came since the last table.
        var heading = "table"
        while let start = rest.firstRange(of: "<table".unicodeScalars),
            let end = rest[start.upperBound...].firstRange(of: "</table>".unicodeScalars)
        {
            heading = lastHeading(in: rest[..<start.lowerBound]) ?? heading
            let name = fileName(base: base, number: files.count + 1, heading: heading)
            files.append(File(name: name, text: csv(rows(of: rest[start.lowerBound..<end.upperBound]))))
            output.unicodeScalars.append(contentsOf: rest[..<end.upperBound])
            rest = rest[end.upperBound...]
            // A chart's data table is folded away: its link goes after the fold, where it shows.
            let fold = "</div></details>"
            if rest.starts(with: fold.unicodeScalars) {
                output += fold
                rest = rest.dropFirst(fold.unicodeScalars.count)
            }
            output += "<p class=\"csv\"><a href=\"\(name)\" download=\"\(name)\">CSV</a></p>"
        }
        output.unicodeScalars.append(contentsOf: rest)
        return (output, files)
    }

    /// The cells of each row of a table's markup.
    static func rows(of table: Substring.UnicodeScalarView) -> [[String]] {
        table.split(separator: "<tr".unicodeScalars, omittingEmptySubsequences: false).dropFirst().map { row in
            var cells: [String] = []
            var rest = row
            while let cell = nextCell(in: rest) {
                cells.append(cell.value)
                rest = cell.rest
            }
            return cells
        }
    }

    /// The next `<td>` or `<th>` of `text`: its value and what follows it.
    private static func nextCell(in text: Substring.UnicodeScalarView) -> (value: String, rest: Substring.UnicodeScalarView)? {
        guard let open = firstRange(of: ["<td", "<th"], in: text), let tagEnd = text[open.upperBound...].firstIndex(of: ">") else {
            return nil
        }
        let tag = text[open.lowerBound..<tagEnd]
        let closing = text[open.lowerBound...].starts(with: "<td".unicodeScalars) ? "</td>" : "</th>"
        guard let close = text[tagEnd...].firstRange(of: closing.unicodeScalars) else { return nil }
        let content = text[text.index(after: tagEnd)..<close.lowerBound]
        let value = attribute("data-value", of: tag) ?? plainText(content)
        return (value, text[close.upperBound...])
    }

    /// The first place in `text` where one of `needles` starts, or nil.
    private static func firstRange(of needles: [String], in text: Substring.UnicodeScalarView) -> Range<String.Index>? {
        needles.compactMap { text.firstRange(of: $0.unicodeScalars) }.min { $0.lowerBound < $1.lowerBound }
    }

    /// The value of `name="…"` in a tag, unescaped, or nil.
    private static func attribute(_ name: String, of tag: Substring.UnicodeScalarView) -> String? {
        guard let start = tag.firstRange(of: " \(name)=\"".unicodeScalars), let end = tag[start.upperBound...].firstIndex(of: "\"")
        else { return nil }
        return unescaped(tag[start.upperBound..<end])
    }

    /// Markup without its tags, entities unescaped, white space collapsed.
    static func plainText(_ markup: Substring.UnicodeScalarView) -> String {
        var text = String.UnicodeScalarView()
        var inTag = false
        for scalar in markup {
            if scalar == "<" {
                inTag = true
            } else if scalar == ">" {
                inTag = false
            } else if !inTag {
                text.append(scalar)
            }
        }
        return unescaped(text[...]).unicodeScalars.split(whereSeparator: \.properties.isWhitespace).map { String(Substring($0)) }
            .joined(separator: " ")
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;` and numeric references as their characters.
    private static func unescaped(_ text: Substring.UnicodeScalarView) -> String {
        var output = ""
        var rest = text
        while let ampersand = rest.firstIndex(of: "&") {
            output.unicodeScalars.append(contentsOf: rest[..<ampersand])
            guard let semicolon = rest[ampersand...].prefix(12).firstIndex(of: ";") else {
                output += "&"
                rest = rest[rest.index(after: ampersand)...]
                continue
            }
            let entity = String(Substring(rest[rest.index(after: ampersand)..<semicolon]))
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "][entity]
            var scalar: Unicode.Scalar?
            if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if entity.hasPrefix("#") {
                scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init)
            }
            if let replacement = named ?? scalar.map({ String($0) }) {
                output += replacement
                rest = rest[rest.index(after: semicolon)...]
            } else {
                output += "&"
                rest = rest[rest.index(after: ampersand)...]
            }
        }
        output.unicodeScalars.append(contentsOf: rest)
        return output
    }

    /// Whether `name` is a table's CSV of the page `pageName` (one written for an earlier rendering too).
    public static func isFile(_ name: String, of pageName: String) -> Bool {
        let base = pageName.hasSuffix(".html") ? String(pageName.dropLast(5)) : pageName
        return name.hasPrefix(base + ".table-") && name.hasSuffix(".csv")
    }

    /// The text of the last `<h2>` or `<h3>` of `markup` without its status badges (so that a table keeps its
    /// file name when its status changes), or nil.
    private static func lastHeading(in markup: Substring.UnicodeScalarView) -> String? {
        var start: Range<String.Index>?
        while let next = firstRange(of: ["<h2", "<h3"], in: markup[(start?.upperBound ?? markup.startIndex)...]) { start = next }
        guard let start, let close = markup[start.upperBound...].firstRange(of: "</h".unicodeScalars) else { return nil }
        let heading = String(Substring(markup[start.upperBound..<close.lowerBound].drop { $0 != ">" }.dropFirst()))
            .replacingOccurrences(of: "<span class=\"status[^\"]*\">[^<]*</span>", with: "", options: .regularExpression)
        return plainText(heading.unicodeScalars[...])
    }

    /// `oncall.table-3-purchase-by-productid-worst-first.csv`: at most 64 characters, the names `serve` hands out.
    static func fileName(base: String, number: Int, heading: String) -> String {
        var slug = ""
        for character in heading.lowercased() {
            if character.isASCII, character.isLetter || character.isNumber {
                slug.append(character)
            } else if !slug.hasSuffix("-") {
                slug.append("-")
            }
        }
        let prefix = "\(base).table-\(number)-"
        let room = max(0, 64 - 4 - prefix.count)
        let trimmed = String(slug.trimmingCharacters(in: ["-"]).prefix(room)).trimmingCharacters(in: ["-"])
        return prefix + (trimmed.isEmpty ? "table" : trimmed) + ".csv"
    }

    /// RFC 4180 text of `rows`; a cell a spreadsheet would run as a formula (its first Unicode scalar `=`,
    /// `+`, `-`, `@`, a tab or a carriage return, ``CSVText/startsFormula(_:)``, and not a plain number) is
    /// prefixed with `'`, so a hostile error description cannot run in Excel.
    static func csv(_ rows: [[String]]) -> String {
        rows.map { row in
            row.map { cell -> String in
                var value = cell
                if CSVText.startsFormula(value), !isPlainNumber(value) { value = "'" + value }
                guard value.containsScalar(in: ",\"\n\r".unicodeScalars) else { return value }
                return CSVText.quoted(value)
            }.joined(separator: ",")
        }.joined(separator: "\r\n") + "\r\n"
    }

    /// Whether `text` is a number as the pages write one (`-4.4`, `1e-05`): ASCII digits, signs, a point
    /// and an exponent only, and a `Double` (so not `-inf`, `-nan` or a hexadecimal float).
    private static func isPlainNumber(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { "0123456789+-.eE".unicodeScalars.contains($0) } && Double(text) != nil
    }
}
