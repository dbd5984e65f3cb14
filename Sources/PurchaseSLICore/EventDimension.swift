/// A field that events can be grouped and filtered by: the one registry of dimensions.
///
/// The raw value is the event field's JSON name, so `--by productID` and the JSON keys of query rows
/// read the same as the event format. Everything else derives from a case's properties here: the event's
/// field and its validation (``field``, ``maximumLength``), both stores' series columns and value codes
/// (``seriesColumn``, ``storageCode``), queries' `--by`, policies' slices and dashboards' filters
/// (``seriesDimensions``). Adding a dimension is a case here, its ``EventField`` and ``PurchaseEvent``
/// property (the compiler points at every switch that must name it), and one migration per store that adds
/// its column to `series`.
public enum EventDimension: String, Sendable, Hashable, CaseIterable, Codable {
    case actionType, productID, planID, groupID, offerID, appVersion, platform, osVersion, variant
    /// The app the event comes from: its bundle id (iOS) or package name (Android), so that one service
    /// serves several apps.
    case app
    /// The result of the event; stored as one counter per result rather than as a key.
    case resultType
    /// The error description; stored per bucket and series for the events that have one.
    case errorDescription

    /// The dimensions that make up a stored series, in storage order.
    public static let seriesDimensions: [EventDimension] = [
        .actionType, .productID, .planID, .groupID, .offerID, .appVersion, .platform, .osVersion, .variant, .app,
    ]

    /// The position of this dimension in ``seriesDimensions``, or nil for `resultType` and `errorDescription`.
    public var seriesIndex: Int? { Self.seriesDimensions.firstIndex(of: self) }

    /// The dimensions a policy may slice an action by: every series dimension but the action itself.
    public static let sliceDimensions = seriesDimensions.filter { $0 != .actionType }

    /// The event format's field that carries this dimension's value.
    public var field: EventField {
        switch self {
        case .actionType: .actionType
        case .productID: .productID
        case .planID: .planID
        case .groupID: .groupID
        case .offerID: .offerID
        case .appVersion: .appVersion
        case .platform: .platform
        case .osVersion: .osVersion
        case .variant: .variant
        case .app: .app
        case .resultType: .resultType
        case .errorDescription: .errorDescription
        }
    }

    /// The longest value an event may carry for an identifier dimension, in Unicode scalars; nil for those
    /// checked otherwise: the action (a token, ``ActionType/isValidToken(_:)``), the result (one of
    /// ``ResultType``) and the error description (free text, truncated at
    /// ``EventValidator/maximumDescriptionLength``).
    public var maximumLength: Int? {
        switch self {
        case .productID, .planID, .groupID, .offerID, .app: 255
        case .appVersion, .platform, .osVersion, .variant: 64
        case .actionType, .resultType, .errorDescription: nil
        }
    }

    /// The dimension each event field carries, by ``EventField/rawValue`` (nil for the fields that are not one).
    static let byField: [EventDimension?] = EventField.allCases.map { field in allCases.first { $0.field == field } }

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
