package import PurchaseSLICore

/// How the stores keep each dimension: the codes and columns of their tables, which only the stores read.
extension EventDimension {
    /// The number under which both stores keep this dimension's values (`dimension_value.dimension`, the
    /// caps' `admitted_value` and `overflow`): stable across releases, whatever the order of the cases;
    /// nil for `resultType`, a counter rather than a value.
    package var storageCode: Int? {
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
        // 11 is the series cap's code (the combination of every dimension), not a dimension's.
        case .app: 12
        case .resultType: nil
        }
    }

    /// The column of the stores' `series` table that holds this dimension's value id, or nil for a dimension
    /// that is not part of a series.
    package var seriesColumn: String? {
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
        case .app: "app"
        case .resultType, .errorDescription: nil
        }
    }
}
