extension StringProtocol {
    /// The text with every Unicode scalar for which `replacement` gives text replaced by that text, the
    /// others kept: the one loop every escaper here runs. It goes scalar by scalar, never `Character` by
    /// `Character`: a `Character` is a grapheme cluster, and `"\u{0600}<"` (a prepended mark) or `">\u{0301}"`
    /// (a combining accent) is one `Character` that is neither `<` nor `>`, so an escaper comparing
    /// `Character`s would let the `<` through. (Foundation's `replacingOccurrences(of:with:)` misses
    /// `">\u{0301}"` too.) O(n) in the scalars.
    func replacingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var output = ""
        output.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if let text = replacement(scalar) { output += text } else { output.unicodeScalars.append(scalar) }
        }
        return output
    }

    /// Whether any Unicode scalar of the text is one of `scalars` (not whether a `Character` is: see
    /// ``replacingScalars(_:)``).
    func containsScalar(in scalars: String.UnicodeScalarView) -> Bool {
        unicodeScalars.contains { scalars.contains($0) }
    }
}
