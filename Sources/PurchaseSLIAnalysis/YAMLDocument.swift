import Yams

/// A YAML file read into plain values (`String`, `Int`, `Double`, `Bool`, `[Any]`, `[String: Any]`)
/// without trusting the file: a key that is not text or aliases that expand into more than
/// ``maximumValues`` values are errors naming where they are, never a trap or a memory blow-up (Yams'
/// own `load` traps on a mapping used as a key and expands aliases without limit; its parser already
/// refuses a key given twice).
enum YAMLDocument {
    /// The most values a policy or dashboard file may hold once its aliases are expanded.
    static let maximumValues = 100_000

    /// Yams' default tags without YAML 1.1's base-60 numbers (`1:30`), whose conversion overflows and
    /// traps on a long one (`1:0:0:0:0:0:0:0:0:0:0`), and without timestamps: both read as text, which
    /// the policy's own checks then refuse where a number is expected.
    private static let resolver = try! Resolver.default.removing(.timestamp)
        .replacing(.int, with: "^(?:[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+)$")
        .replacing(
            .float,
            with:
                #"^(?:[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"#
        )

    /// The file's first document as plain values; nil for an empty file.
    /// - Throws: ``PolicyError`` naming the line and column of a syntax error (nesting deeper than libyaml's
    ///   1,000 levels included).
    static func plainValues(_ yaml: String) throws -> Any? {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml, Self.resolver)
        } catch {
            throw syntaxError(error, document: nil)
        }
        guard let root else { return nil }
        var reader = Reader()
        return try reader.plainValue(root, at: "")
    }

    /// Every document of a stream (`---` between them) as plain values, the values of all of them counted
    /// against ``maximumValues``; an empty document is nil. A syntax error anywhere fails the whole stream,
    /// naming its document (from 1), line and column: none of the documents before it is returned (Yams'
    /// `compose_all` would end the sequence there without a word).
    static func allPlainValues(_ yaml: String) throws -> [Any?] {
        var reader = Reader()
        var documents: [Any?] = []
        let parser: Parser
        do {
            parser = try Parser(yaml: yaml, resolver: Self.resolver)
        } catch {
            throw syntaxError(error, document: 1)
        }
        while true {
            let root: Node?
            do {
                root = try parser.nextRoot()
            } catch {
                throw syntaxError(error, document: documents.count + 1)
            }
            guard let root else { return documents }
            documents.append(try reader.plainValue(root, at: ""))
        }
    }

    /// A YAML syntax error as `document N, line L, column C: not valid YAML: what` (the document only in a
    /// stream of several).
    private static func syntaxError(_ error: any Error, document: Int?) -> PolicyError {
        let place: (line: Int, column: Int)?
        let problem: String
        switch error as? YamlError {
        case .scanner(let context, let text, let mark, _), .parser(let context, let text, let mark, _),
            .composer(let context, let text, let mark, _):
            place = (mark.line, mark.column)
            problem = context.map { "\($0.text) (line \($0.mark.line), column \($0.mark.column)): \(text)" } ?? text
        case .reader(let text, let offset?, _, let yaml):
            let before = yaml.prefix(offset)
            let lineStart = before.lastIndex(where: \.isNewline).map { before.index(after: $0) } ?? before.startIndex
            place = (before.count(where: \.isNewline) + 1, before.distance(from: lineStart, to: before.endIndex) + 1)
            problem = text
        case .duplicatedKeysInMapping(let duplicates, let context):
            place = (context.mark.line, context.mark.column)
            problem = "duplicated key(s): " + duplicates.sorted().map { "'\($0)'" }.joined(separator: ", ")
        default:
            (place, problem) = (nil, "\(error)")
        }
        let parts = [document.map { "document \($0)" }, place.map { "line \($0.line), column \($0.column)" }].compactMap(\.self)
        return PolicyError(path: parts.isEmpty ? "(file)" : parts.joined(separator: ", "), reason: "not valid YAML: \(problem)")
    }

    /// Converts nodes depth first, counting the values made.
    private struct Reader {
        let constructor = Constructor.default
        var valuesLeft = YAMLDocument.maximumValues

        mutating func plainValue(_ node: Node, at path: String) throws -> Any {
            valuesLeft -= 1
            guard valuesLeft >= 0 else {
                throw PolicyError(
                    path: path.isEmpty ? "(file)" : path,
                    reason: "more than \(YAMLDocument.maximumValues) values (aliases that expand too far?)")
            }
            switch node {
            case .scalar:
                return constructor.any(from: node)
            case .sequence(let sequence):
                return try sequence.enumerated().map { try plainValue($1, at: "\(path)[\($0)]") }
            case .mapping(let mapping):
                var map: [String: Any] = [:]
                for (key, value) in mapping {
                    guard case .scalar(let scalar) = key else {
                        throw PolicyError(path: path.isEmpty ? "(file)" : path, reason: "a key that is not text")
                    }
                    let keyPath = path.isEmpty ? scalar.string : "\(path).\(scalar.string)"
                    map[scalar.string] = try plainValue(value, at: keyPath)
                }
                return map
            case .alias:
                throw PolicyError(path: path.isEmpty ? "(file)" : path, reason: "an alias that refers to nothing")
            }
        }
    }
}
