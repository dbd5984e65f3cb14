import Testing

/// A class of Unicode scalars that make one grapheme cluster (one Swift `Character`) with a character
/// beside them, so that an escaper comparing `Character`s no longer sees a `<`, a quote or a backtick
/// there: every scalar of the class, found by reading Unicode's properties for every assigned scalar.
struct JoiningClass: Sendable, CustomTestStringConvertible {
    /// What the class is, as Unicode names it.
    let name: String
    /// Its scalars, in order.
    let scalars: [Unicode.Scalar]

    var testDescription: String { "\(name) (\(scalars.count) scalars)" }
}

extension JoiningClass {
    /// Every class, each scalar in the first that takes it: the prepended marks (`U+0600` and the like join
    /// the character after them), the joiners, the variation selectors, the emoji modifiers, the tags, the
    /// nonspacing, enclosing and spacing marks, Hangul jamo and syllables, regional indicators, and every
    /// other scalar that Swift finds joining `<` on either side. Made once: it reads all 1,114,112 scalars.
    static let all: [JoiningClass] = {
        let assigned = (0...0x10FFFF).compactMap(Unicode.Scalar.init).filter {
            ![.unassigned, .privateUse, .control, .surrogate].contains($0.properties.generalCategory)
        }
        let special: Unicode.Scalar = "<"
        func joinsAfter(_ scalar: Unicode.Scalar) -> Bool { String(String.UnicodeScalarView([special, scalar])).count == 1 }
        func joinsBefore(_ scalar: Unicode.Scalar) -> Bool { String(String.UnicodeScalarView([scalar, special])).count == 1 }
        let definitions: [(String, (Unicode.Scalar) -> Bool)] = [
            ("prepended marks", { joinsBefore($0) }),
            ("zero-width joiner and non-joiner", { $0 == "\u{200D}" || $0 == "\u{200C}" }),
            ("variation selectors", { $0.properties.isVariationSelector }),
            ("emoji modifiers", { $0.properties.isEmojiModifier }),
            ("tags", { (0xE0000...0xE007F).contains($0.value) }),
            ("nonspacing marks", { $0.properties.generalCategory == .nonspacingMark }),
            ("enclosing marks", { $0.properties.generalCategory == .enclosingMark }),
            ("spacing marks", { $0.properties.generalCategory == .spacingMark }),
            (
                "Hangul jamo and syllables",
                { scalar in
                    let ranges: [ClosedRange<UInt32>] = [0x1100...0x11FF, 0xA960...0xA97F, 0xD7B0...0xD7FF, 0xAC00...0xAC01, 0xD7A3...0xD7A3]
                    return ranges.contains { $0.contains(scalar.value) }
                }
            ),
            ("regional indicators", { (0x1F1E6...0x1F1FF).contains($0.value) }),
            ("other scalars that join a character before them", { joinsAfter($0) }),
        ]
        var taken = Set<Unicode.Scalar>()
        return definitions.map { name, isMember in
            let scalars = assigned.filter { !taken.contains($0) && isMember($0) }
            taken.formUnion(scalars)
            return JoiningClass(name: name, scalars: scalars)
        }
    }()
}
