/// Encodes an `Encodable` value as compact JSON text: each object's keys in the order the value encodes
/// them (a synthesized `encode(to:)` follows the order of declaration), strings as ``JSONText/quoted(_:)``
/// writes them, doubles as ``JSONText/number(_:)``, and an optional without a value as `null`, key kept
/// (``JSONOmittedIfAbsent`` leaves a member out instead).
///
/// So an answer's shape is its type, written once, and its text is what a reader of the type expects: no
/// key reordered by a dictionary, no key dropped because its value is absent. Foundation's `JSONEncoder`
/// does neither (it drops absent optionals and orders keys by hash or by name).
public enum JSONTextEncoder {
    /// `value` as JSON text.
    ///
    /// The encoder throws no error of its own; a value whose `encode(to:)` throws is a programming error.
    public static func text(_ value: some Encodable) -> String {
        let root = JSONNode()
        do {
            try root.encode(value)
        } catch {
            preconditionFailure("\(type(of: value)).encode(to:) threw \(error); JSONTextEncoder throws nothing of its own")
        }
        var text = ""
        root.write(to: &text)
        return text
    }
}

/// One value being encoded: a leaf already written as JSON text, or an array or object of values.
private final class JSONNode {
    enum Content {
        case unset
        case leaf(String)
        case array([JSONNode])
        case object([(key: String, value: JSONNode)])
    }

    var content = Content.unset

    /// Sets this node to `value`: a leaf when JSON has a literal for it, else what its `encode(to:)` makes.
    func encode(_ value: some Encodable) throws {
        if let leaf = Self.leaf(value) {
            content = .leaf(leaf)
        } else {
            try value.encode(to: NodeEncoder(node: self))
        }
    }

    /// The JSON literal of a string, a truth value or a number; nil for anything else.
    ///
    /// The type is compared, not cast: a cast that fails (a struct of members, a cell of a row) costs more
    /// than writing the value, and every member of every row of a long answer comes through here.
    static func leaf<Value: Encodable>(_ value: Value) -> String? {
        let type = Value.self
        if type == String.self { return JSONText.quoted(value as! String) }
        if type == Int64.self { return String(value as! Int64) }
        if type == Int.self { return String(value as! Int) }
        if type == Double.self { return JSONText.number(value as! Double) }
        if type == Bool.self { return (value as! Bool) ? "true" : "false" }
        if type == Int32.self { return String(value as! Int32) }
        if type == UInt64.self { return String(value as! UInt64) }
        if type == UInt.self { return String(value as! UInt) }
        if type == UInt32.self { return String(value as! UInt32) }
        if type == Int16.self { return String(value as! Int16) }
        if type == UInt16.self { return String(value as! UInt16) }
        if type == Int8.self { return String(value as! Int8) }
        if type == UInt8.self { return String(value as! UInt8) }
        if type == Float.self { return JSONText.number(Double(value as! Float)) }
        return nil
    }

    /// This node as an object, its members so far kept (an object already).
    func members() -> [(key: String, value: JSONNode)] {
        if case .object(let members) = content { return members }
        content = .object([])
        return []
    }

    /// A new member `key` of this object, in the place of one of the same key.
    func member(_ key: String) -> JSONNode {
        var members = members()
        // The content let go first, so that the array is changed in place rather than copied.
        content = .unset
        let child = JSONNode()
        if let index = members.firstIndex(where: { $0.key == key }) { members[index].value = child } else { members.append((key, child)) }
        content = .object(members)
        return child
    }

    /// A new element at the end of this array.
    func element() -> JSONNode {
        var elements: [JSONNode] = []
        if case .array(let existing) = content { elements = existing }
        // The content let go first, so that the array is changed in place rather than copied.
        content = .unset
        let child = JSONNode()
        elements.append(child)
        content = .array(elements)
        return child
    }

    /// Whether nothing was encoded into this node.
    var isUnset: Bool {
        if case .unset = content { return true }
        return false
    }

    /// The number of elements of this array.
    var count: Int {
        if case .array(let elements) = content { return elements.count }
        return 0
    }

    func write(to text: inout String) {
        switch content {
        case .unset: text += "null"
        case .leaf(let leaf): text += leaf
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                element.write(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            // A member whose value encoded nothing (``JSONOmittedIfAbsent`` without a value) is left out.
            var first = true
            for member in members where !member.value.isUnset {
                if !first { text += "," }
                first = false
                text += JSONText.quoted(member.key)
                text += ":"
                member.value.write(to: &text)
            }
            text += "}"
        }
    }
}

/// The `Encoder` a value's `encode(to:)` writes one node through.
private struct NodeEncoder: Encoder {
    let node: JSONNode
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        _ = node.members()
        return KeyedEncodingContainer(KeyedNodeContainer(node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedNodeContainer(node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleNodeContainer(node: node) }
}

/// An object's members, in the order they are encoded; an absent optional is `null`.
private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONNode
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) { node.member(key.stringValue).content = .leaf("null") }
    mutating func encode(_ value: some Encodable, forKey key: Key) throws { try node.member(key.stringValue).encode(value) }

    mutating func encodeIfPresent(_ value: (some Encodable)?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOptional(value, key) }

    private mutating func encodeOptional(_ value: (some Encodable)?, _ key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeNil(forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.member(key.stringValue)).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.member(key.stringValue)).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.member("super")) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { NodeEncoder(node: node.member(key.stringValue)) }
}

/// An array's elements, in order.
private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: JSONNode
    var codingPath: [any CodingKey] { [] }
    var count: Int { node.count }

    mutating func encodeNil() { node.element().content = .leaf("null") }
    mutating func encode(_ value: some Encodable) throws { try node.element().encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.element()).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { NodeEncoder(node: node.element()).unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.element()) }
}

/// One value in the node itself.
private struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: JSONNode
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() { node.content = .leaf("null") }
    mutating func encode(_ value: some Encodable) throws { try node.encode(value) }
}

/// A member of an object that is left out when it has no value (where an absent optional is `null`):
/// for a member that only some objects of a list have.
public struct JSONOmittedIfAbsent<Wrapped: Encodable & Sendable>: Encodable, Sendable {
    /// The member's value, if it has one.
    public let value: Wrapped?

    /// The member `value`, left out when nil.
    public init(_ value: Wrapped?) { self.value = value }

    /// Encodes the value, or nothing at all.
    public func encode(to encoder: any Encoder) throws {
        if let value { try value.encode(to: encoder) }
    }
}

extension JSONOmittedIfAbsent: Equatable where Wrapped: Equatable {}
extension JSONOmittedIfAbsent: Hashable where Wrapped: Hashable {}
