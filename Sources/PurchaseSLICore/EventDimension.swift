/// A field that events can be grouped and filtered by.
///
/// The raw value is the event field's JSON name, so `--by productID` and the JSON keys of query rows
/// read the same as the event format.
public enum EventDimension: String, Sendable, Hashable, CaseIterable, Codable {
    case actionType, productID, planID, groupID, offerID, appVersion, platform, osVersion, variant
    /// The result of the event; stored as one counter per result rather than as a key.
    case resultType
    /// The error description; stored per bucket and series for the events that have one.
    case errorDescription

    /// The dimensions that make up a stored series, in storage order.
    public static let seriesDimensions: [EventDimension] = [
        .actionType, .productID, .planID, .groupID, .offerID, .appVersion, .platform, .osVersion, .variant,
    ]

    /// The position of this dimension in ``seriesDimensions``, or nil for `resultType` and `errorDescription`.
    public var seriesIndex: Int? { Self.seriesDimensions.firstIndex(of: self) }

    /// Parses a dimension name, accepting the JSON field name in any letter case.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
            return nil
        }
        self = match
    }

    /// The accepted names, for error messages and help text.
    public static let spellings = allCases.map(\.rawValue).joined(separator: ", ")

    /// The value under which events beyond the cardinality cap are counted.
    public static let overflowValue = "__other__"
}
