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
    ///
    /// The markup is read as UTF-8 bytes: everything it is cut at (`<`, `>`, `"`, `&`, `;`) is ASCII, so a
    /// byte of it is a whole Unicode scalar, as a browser reads it. (Event text that starts with a combining
    /// mark makes one `Character` with the `>` before it, and text that ends with a prepended mark one with
    /// the `<` after it, which a search by `Character` would miss.)
    public static func attach(to html: String, pageName: String) -> (html: String, files: [File]) {
        let base = pageName.hasSuffix(".html") ? String(pageName.dropLast(5)) : pageName
        var output: [UInt8] = []
        output.reserveCapacity(html.utf8.count + 1024)
        var files: [File] = []
        let bytes = Array(html.utf8)
        var rest = bytes[...]
        // The heading in force: the last one before the table, looked for only in what came since the last table.
        var heading = "table"
        while let start = firstRange(of: "<table", in: rest), let end = firstRange(of: "</table>", in: rest[start.upperBound...]) {
            heading = lastHeading(in: rest[..<start.lowerBound]) ?? heading
            let name = fileName(base: base, number: files.count + 1, heading: heading)
            files.append(File(name: name, text: csv(rows(of: rest[start.lowerBound..<end.upperBound]))))
            output += rest[..<end.upperBound]
            rest = rest[end.upperBound...]
            // A chart's data table is folded away: its link goes after the fold, where it shows.
            let fold = "</div></details>".utf8
            if rest.starts(with: fold) {
                output += fold
                rest = rest.dropFirst(fold.count)
            }
            output += "<p class=\"csv\"><a href=\"\(name)\" download=\"\(name)\">CSV</a></p>".utf8
        }
        output += rest
        return (String(decoding: output, as: UTF8.self), files)
    }

    /// The first place `needle` (ASCII) starts in `text`, or nil. O(n·m).
    private static func firstRange(of needle: StaticString, in text: ArraySlice<UInt8>) -> Range<Int>? {
        let needle = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        var from = text.startIndex
        while let start = text[from...].firstIndex(of: needle[0]) {
            guard text.endIndex - start >= needle.count else { return nil }
            if text[start..<start + needle.count].elementsEqual(needle) { return start..<start + needle.count }
            from = start + 1
        }
        return nil
    }

    /// The cells of each row of a table's markup.
    static func rows(of table: ArraySlice<UInt8>) -> [[String]] {
        var rows: [[String]] = []
        var rest = table
        guard let first = firstRange(of: "<tr", in: rest) else { return [] }
        rest = rest[first.upperBound...]
        while !rest.isEmpty {
            let next = firstRange(of: "<tr", in: rest)
            var row = rest[..<(next?.lowerBound ?? rest.endIndex)]
            var cells: [String] = []
            while let cell = nextCell(in: row) {
                cells.append(cell.value)
                row = cell.rest
            }
            rows.append(cells)
            rest = rest[(next?.upperBound ?? rest.endIndex)...]
        }
        return rows
    }

    /// The next `<td>` or `<th>` of `text`: its value and what follows it.
    private static func nextCell(in text: ArraySlice<UInt8>) -> (value: String, rest: ArraySlice<UInt8>)? {
        let opens = [firstRange(of: "<td", in: text), firstRange(of: "<th", in: text)].compactMap { $0 }
        guard let open = opens.min(by: { $0.lowerBound < $1.lowerBound }),
            let tagEnd = text[open.upperBound...].firstIndex(of: UInt8(ascii: ">"))
        else { return nil }
        let tag = text[open.lowerBound..<tagEnd]
        let isData = text[open.lowerBound + 2] == UInt8(ascii: "d")
        guard let close = isData ? firstRange(of: "</td>", in: text[tagEnd...]) : firstRange(of: "</th>", in: text[tagEnd...]) else {
            return nil
        }
        let value = attribute(of: tag) ?? plainText(text[(tagEnd + 1)..<close.lowerBound])
        return (value, text[close.upperBound...])
    }

    /// The value of ` data-value="…"` in a tag, unescaped, or nil.
    private static func attribute(of tag: ArraySlice<UInt8>) -> String? {
        guard let start = firstRange(of: " data-value=\"", in: tag), let end = tag[start.upperBound...].firstIndex(of: UInt8(ascii: "\""))
        else { return nil }
        return unescaped(tag[start.upperBound..<end])
    }

    /// Markup without its tags, entities unescaped, white space (any Unicode scalar that is) collapsed.
    static func plainText(_ markup: ArraySlice<UInt8>) -> String {
        var text: [UInt8] = []
        var inTag = false
        for byte in markup {
            if byte == UInt8(ascii: "<") {
                inTag = true
            } else if byte == UInt8(ascii: ">") {
                inTag = false
            } else if !inTag {
                text.append(byte)
            }
        }
        return unescaped(text[...]).unicodeScalars.split(whereSeparator: \.properties.isWhitespace).map { String(Substring($0)) }
            .joined(separator: " ")
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;` and numeric references as their characters.
    private static func unescaped(_ text: ArraySlice<UInt8>) -> String {
        var output = ""
        var rest = text
        while let ampersand = rest.firstIndex(of: UInt8(ascii: "&")) {
            output += String(decoding: rest[..<ampersand], as: UTF8.self)
            guard let semicolon = rest[ampersand...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
                output += "&"
                rest = rest[(ampersand + 1)...]
                continue
            }
            let entity = String(decoding: rest[(ampersand + 1)..<semicolon], as: UTF8.self)
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "][entity]
            var scalar: Unicode.Scalar?
            if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if entity.hasPrefix("#") {
                scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init)
            }
            if let replacement = named ?? scalar.map({ String($0) }) {
                output += replacement
                rest = rest[(semicolon + 1)...]
            } else {
                output += "&"
                rest = rest[(ampersand + 1)...]
            }
        }
        return output + String(decoding: rest, as: UTF8.self)
    }

    /// Whether `name` is a table's CSV of the page `pageName` (one written for an earlier rendering too).
    public static func isFile(_ name: String, of pageName: String) -> Bool {
        let base = pageName.hasSuffix(".html") ? String(pageName.dropLast(5)) : pageName
        return name.hasPrefix(base + ".table-") && name.hasSuffix(".csv")
    }

    /// The text of the last `<h2>` or `<h3>` of `markup` without its status badges (so that a table keeps its
    /// file name when its status changes), or nil.
    private static func lastHeading(in markup: ArraySlice<UInt8>) -> String? {
        var start: Range<Int>?
        while let next = [
            firstRange(of: "<h2", in: markup[(start?.upperBound ?? markup.startIndex)...]),
            firstRange(of: "<h3", in: markup[(start?.upperBound ?? markup.startIndex)...]),
        ].compactMap({ $0 })
            .min(by: { $0.lowerBound < $1.lowerBound })
        {
            start = next
        }
        guard let start, let close = firstRange(of: "</h", in: markup[start.upperBound...]) else { return nil }
        let heading = String(decoding: markup[start.upperBound..<close.lowerBound].drop { $0 != UInt8(ascii: ">") }.dropFirst(), as: UTF8.self)
            .replacingOccurrences(of: "<span class=\"status[^\"]*\">[^<]*</span>", with: "", options: .regularExpression)
        return plainText(Array(heading.utf8)[...])
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
