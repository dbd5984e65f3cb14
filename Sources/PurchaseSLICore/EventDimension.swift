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

    /// The dimensions a policy may slice an action by: every series dimension but the action itself.
    public static let sliceDimensions = seriesDimensions.filter { $0 != .actionType }

    /// The number under which both stores keep this dimension's values (`dimension_value.dimension`, the
    /// caps' `admitted_value` and `overflow`): stable across releases, whatever the order of the cases;
    /// nil for `resultType`, a counter rather than a value.
    public var storageCode: Int? {
        switch self {
        case .actionType: 1
        case .productID: 2
        case .planID: 3
        case .groupID: 4
        case .offerID: 5
        case .appVersion: 6
        case .platform: 7
        case .osVersion: 8
        case .variant: 9
        case .errorDescription: 10
        case .resultType: nil
        }
    }

    /// The column of the stores' `series` table that holds this dimension's value id, or nil for a dimension
    /// that is not part of a series.
    public var seriesColumn: String? {
        switch self {
        case .actionType: "action"
        case .productID: "product"
        case .planID: "plan"
        case .groupID: "grp"
        case .offerID: "offer"
        case .appVersion: "app_version"
        case .platform: "platform"
        case .osVersion: "os_version"
        case .variant: "variant"
        case .resultType, .errorDescription: nil
        }
    }

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
