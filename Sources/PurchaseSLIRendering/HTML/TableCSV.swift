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
    public static func attach(to html: String, pageName: String) -> (html: String, files: [File]) {
        let base = pageName.hasSuffix(".html") ? String(pageName.dropLast(5)) : pageName
        var output = ""
        var files: [File] = []
        var rest = Substring(html)
        // The heading in force: the last one before the table, looked for only in what came since the last table.
        var heading = "table"
        while let start = rest.range(of: "<table"), let end = rest[start.upperBound...].range(of: "</table>") {
            heading = lastHeading(in: rest[..<start.lowerBound]) ?? heading
            let table = rest[start.lowerBound..<end.upperBound]
            let name = fileName(base: base, number: files.count + 1, heading: heading)
            files.append(File(name: name, text: csv(rows(of: table))))
            output += rest[..<end.upperBound]
            rest = rest[end.upperBound...]
            // A chart's data table is folded away: its link goes after the fold, where it shows.
            let fold = "</div></details>"
            if rest.hasPrefix(fold) {
                output += fold
                rest = rest.dropFirst(fold.count)
            }
            output += "<p class=\"csv\"><a href=\"\(name)\" download=\"\(name)\">CSV</a></p>"
        }
        return (output + rest, files)
    }

    /// The cells of each row of a table's markup.
    static func rows(of table: Substring) -> [[String]] {
        table.components(separatedBy: "<tr").dropFirst().map { row in
            var cells: [String] = []
            var rest = Substring(row)
            while let cell = nextCell(in: rest) {
                cells.append(cell.value)
                rest = cell.rest
            }
            return cells
        }
    }

    /// The next `<td>` or `<th>` of `text`: its value and what follows it.
    private static func nextCell(in text: Substring) -> (value: String, rest: Substring)? {
        guard let open = [text.range(of: "<td"), text.range(of: "<th")].compactMap({ $0 }).min(by: { $0.lowerBound < $1.lowerBound }),
            let tagEnd = text[open.upperBound...].firstIndex(of: ">")
        else { return nil }
        let tag = text[open.lowerBound..<tagEnd]
        let closing = text[open.lowerBound...].hasPrefix("<td") ? "</td>" : "</th>"
        guard let close = text[tagEnd...].range(of: closing) else { return nil }
        let content = text[text.index(after: tagEnd)..<close.lowerBound]
        let value = attribute("data-value", of: tag) ?? plainText(content)
        return (value, text[close.upperBound...])
    }

    /// The value of `name="…"` in a tag, unescaped, or nil.
    private static func attribute(_ name: String, of tag: Substring) -> String? {
        guard let start = tag.range(of: " \(name)=\""), let end = tag[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return unescaped(tag[start.upperBound..<end])
    }

    /// Markup without its tags, entities unescaped, white space collapsed.
    static func plainText(_ markup: Substring) -> String {
        var text = ""
        var inTag = false
        for character in markup {
            if character == "<" {
                inTag = true
            } else if character == ">" {
                inTag = false
            } else if !inTag {
                text.append(character)
            }
        }
        return unescaped(Substring(text)).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;` and numeric references as their characters.
    private static func unescaped(_ text: Substring) -> String {
        var output = ""
        var rest = text
        while let ampersand = rest.firstIndex(of: "&") {
            output += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].prefix(12).firstIndex(of: ";") else {
                output += "&"
                rest = rest[rest.index(after: ampersand)...]
                continue
            }
            let entity = rest[rest.index(after: ampersand)..<semicolon]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "][String(entity)]
            var scalar: Unicode.Scalar?
            if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if entity.hasPrefix("#") {
                scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init)
            }
            if let replacement = named ?? scalar.map({ String(Character($0)) }) {
                output += replacement
                rest = rest[rest.index(after: semicolon)...]
            } else {
                output += "&"
                rest = rest[rest.index(after: ampersand)...]
            }
        }
        return output + rest
    }

    /// Whether `name` is a table's CSV of the page `pageName` (one written for an earlier rendering too).
    public static func isFile(_ name: String, of pageName: String) -> Bool {
        let base = pageName.hasSuffix(".html") ? String(pageName.dropLast(5)) : pageName
        return name.hasPrefix(base + ".table-") && name.hasSuffix(".csv")
    }

    /// The text of the last `<h2>` or `<h3>` of `markup` without its status badges (so that a table keeps its
    /// file name when its status changes), or nil.
    private static func lastHeading(in markup: Substring) -> String? {
        let candidates = ["<h3", "<h2"].compactMap { markup.range(of: $0, options: .backwards) }
        guard let start = candidates.max(by: { $0.lowerBound < $1.lowerBound }),
            let close = markup[start.upperBound...].range(of: "</h")
        else { return nil }
        let heading = String(markup[start.upperBound..<close.lowerBound].drop { $0 != ">" }.dropFirst())
            .replacingOccurrences(of: "<span class=\"status[^\"]*\">[^<]*</span>", with: "", options: .regularExpression)
        return plainText(Substring(heading))
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

    /// RFC 4180 text of `rows`; a cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@` and not a
    /// number) is prefixed with `'`, so a hostile error description cannot run in Excel.
    static func csv(_ rows: [[String]]) -> String {
        rows.map { row in
            row.map { cell -> String in
                var value = cell
                if let first = value.first, "=+-@\t\r".contains(first), Double(value) == nil { value = "'" + value }
                guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
                return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            }.joined(separator: ",")
        }.joined(separator: "\r\n") + "\r\n"
    }
}
