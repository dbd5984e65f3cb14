import Foundation

/// A strict reading of a rendered page, stricter than HTML itself: every `<` starts an element our code
/// writes (or `<!DOCTYPE html>` at the top), every attribute is one our code writes and has a
/// double-quoted value, `href` is a relative `.html` or `.csv` file (with an alert anchor) or a policy's runbook URL, elements close in order (`meta` is void, SVG
/// elements may self-close), and text and attribute values hold no raw `<` or `>` and no `&` other than the
/// references ``PurchaseSLIRendering/HTML/escape(_:)`` writes. Event text that escaped escaping breaks one
/// of these rules, whatever it says.
enum MarkupCheck {
    /// Every element our pages use.
    static let elements: Set<String> = [
        "html", "head", "meta", "title", "style", "body", "header", "nav", "main", "footer", "section", "h1", "h2",
        "h3", "h4", "p", "div", "span", "strong", "i", "a", "ul", "li", "table", "tr", "th", "td", "code", "details", "summary",
        "svg", "rect", "line", "path", "text",
    ]
    /// Every attribute our pages use.
    static let attributes: Set<String> = [
        "lang", "charset", "http-equiv", "content", "name", "href", "class", "viewBox", "role", "aria-label",
        "x", "y", "x1", "x2", "y1", "y2", "width", "height", "d", "text-anchor", "transform", "id", "rel", "data-value", "download",
    ]
    fileprivate static let voidElements: Set<String> = ["meta"]
    fileprivate static let references: Set<String> = ["amp", "lt", "gt", "quot", "#39"]

    /// What is wrong with `page`, each with the byte offset and the text around it; empty when nothing is.
    static func problems(in page: String) -> [String] {
        var scanner = Scanner(bytes: Array(page.utf8))
        scanner.scan()
        return scanner.problems
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var open: [String] = []
        var problems: [String] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func scan() {
            let doctype = Array("<!DOCTYPE html>".utf8)
            if bytes.starts(with: doctype) { index = doctype.count } else { fail("the page does not start with <!DOCTYPE html>", at: 0) }
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "<"): tag()
                case UInt8(ascii: ">"):
                    fail("a raw > in text", at: index)
                    index += 1
                case UInt8(ascii: "&"): index = reference(at: index)
                default: index += 1
                }
            }
            if !open.isEmpty { problems.append("elements never closed: \(open.joined(separator: " > "))") }
        }

        /// Reads one tag from the `<` at `index`.
        private mutating func tag() {
            let start = index
            var cursor = index + 1
            let closing = byte(at: cursor) == UInt8(ascii: "/")
            if closing { cursor += 1 }
            let name = word(from: &cursor)
            guard Self.isElement(name) else {
                fail("<\(closing ? "/" : "")\(name) is not an element our pages write", at: start)
                index = cursor
                return
            }
            if closing {
                if byte(at: cursor) != UInt8(ascii: ">") { fail("</\(name) does not end with >", at: start) }
                if open.last == name {
                    open.removeLast()
                } else {
                    fail("</\(name)> closes <\(open.last ?? "nothing")>", at: start)
                    if let position = open.lastIndex(of: name) { open.removeSubrange(position...) }
                }
                index = cursor + 1
                return
            }
            var selfClosing = false
            while true {
                let spaceStart = cursor
                while let next = byte(at: cursor), next == UInt8(ascii: " ") || next == UInt8(ascii: "\n") { cursor += 1 }
                guard let next = byte(at: cursor) else {
                    fail("<\(name) never ends", at: start)
                    index = cursor
                    return
                }
                if next == UInt8(ascii: ">") {
                    cursor += 1
                    break
                }
                if next == UInt8(ascii: "/"), byte(at: cursor + 1) == UInt8(ascii: ">") {
                    selfClosing = true
                    cursor += 2
                    break
                }
                let attributeStart = cursor
                let attribute = word(from: &cursor)
                guard attributeStart > spaceStart, !attribute.isEmpty else {
                    fail("<\(name): no space before an attribute, or a stray character", at: cursor)
                    return skipTag(from: cursor)
                }
                guard Self.isAttribute(attribute) else {
                    fail("<\(name) has attribute \"\(attribute)\", which our pages never write", at: attributeStart)
                    return skipTag(from: cursor)
                }
                guard byte(at: cursor) == UInt8(ascii: "="), byte(at: cursor + 1) == UInt8(ascii: "\"") else {
                    fail("<\(name) \(attribute): the value is not in double quotes", at: attributeStart)
                    return skipTag(from: cursor)
                }
                cursor += 2
                let valueStart = cursor
                while let next = byte(at: cursor), next != UInt8(ascii: "\"") {
                    if next == UInt8(ascii: "<") || next == UInt8(ascii: ">") { fail("a raw < or > in the value of \(attribute)", at: cursor) }
                    cursor = next == UInt8(ascii: "&") ? reference(at: cursor) : cursor + 1
                }
                let value = String(decoding: bytes[valueStart..<min(cursor, bytes.count)], as: UTF8.self)
                if attribute == "href", !Self.isPageLink(value) { fail("href=\"\(value)\" is not a page of the set", at: valueStart) }
                if attribute == "id", !Self.isAnchor(value) { fail("id=\"\(value)\" is not an alert anchor", at: valueStart) }
                cursor += 1
            }
            if !selfClosing && !MarkupCheck.voidElements.contains(name) { open.append(name) }
            index = cursor
            if name == "style" && !selfClosing {  // raw text up to </style>
                while index < bytes.count, !bytes[index...].starts(with: Array("</style>".utf8)) { index += 1 }
            }
        }

        /// After a broken tag: carries on after its `>`.
        private mutating func skipTag(from cursor: Int) {
            index = cursor
            while index < bytes.count, bytes[index] != UInt8(ascii: ">") { index += 1 }
            index += 1
        }

        /// Checks the reference at the `&` at `position`; returns where to carry on.
        private mutating func reference(at position: Int) -> Int {
            let end = bytes[position...].prefix(12).firstIndex(of: UInt8(ascii: ";"))
            let name = end.map { String(decoding: bytes[(position + 1)..<$0], as: UTF8.self) }
            guard let end, let name, MarkupCheck.references.contains(name) else {
                fail("an & that is not &amp; &lt; &gt; &quot; or &#39;", at: position)
                return position + 1
            }
            return end + 1
        }

        private func byte(at position: Int) -> UInt8? {
            position < bytes.count ? bytes[position] : nil
        }

        /// Letters, digits and `-` from `cursor`.
        private func word(from cursor: inout Int) -> String {
            let start = cursor
            while let next = byte(at: cursor),
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(next | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next)
                    || next == UInt8(ascii: "-")
            {
                cursor += 1
            }
            return String(decoding: bytes[start..<cursor], as: UTF8.self)
        }

        private mutating func fail(_ message: String, at position: Int) {
            let around = String(decoding: bytes[max(0, position - 30)..<min(bytes.count, position + 50)], as: UTF8.self)
            problems.append("\(message) (byte \(position): …\(around)…)")
        }

        private static func isElement(_ name: String) -> Bool { MarkupCheck.elements.contains(name) }
        private static func isAttribute(_ name: String) -> Bool { MarkupCheck.attributes.contains(name) }

        /// `oncall.html`: a file name of the set, relative, nothing else.
        /// A page of the set, optionally with an alert's anchor, or the runbook link a policy gives.
        private static func isPageLink(_ value: String) -> Bool {
            if value.hasPrefix("https://") || value.hasPrefix("http://") { return !value.contains(" ") }
            let parts = value.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            return (parts[0].hasSuffix(".html") || parts[0].hasSuffix(".csv"))
                && parts[0].utf8.allSatisfy {
                    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                        || $0 == UInt8(ascii: "W")  // the weekly review, report-2026-W46.html
                        || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
                } && (parts.count == 1 || isAnchor(String(parts[1])))
        }

        /// `alert-<Kind>-<12 hex digits>`, as ``AlertFinding/Identity/anchor`` writes.
        private static func isAnchor(_ value: String) -> Bool {
            value.range(of: #"^alert-[A-Za-z]+-[0-9a-f]{12}$"#, options: .regularExpression) != nil
        }
    }
}
