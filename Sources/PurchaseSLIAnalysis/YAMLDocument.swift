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
    static func plainValues(_ yaml: String) throws -> Any? {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml, Self.resolver)
        } catch {
            throw PolicyError(path: "(file)", reason: "not valid YAML: \(error)")
        }
        guard let root else { return nil }
        var reader = Reader()
        return try reader.plainValue(root, at: "")
    }

    /// Every document of a stream (`---` between them) as plain values, the values of all of them counted
    /// against ``maximumValues``; an empty document is nil.
    static func allPlainValues(_ yaml: String) throws -> [Any?] {
        var reader = Reader()
        var documents: [Any?] = []
        do {
            for root in try Yams.compose_all(yaml: yaml, Self.resolver) {
                documents.append(try reader.plainValue(root, at: ""))
            }
        } catch let error as PolicyError {
            throw error
        } catch {
            throw PolicyError(path: "(file)", reason: "not valid YAML: \(error)")
        }
        return documents
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
