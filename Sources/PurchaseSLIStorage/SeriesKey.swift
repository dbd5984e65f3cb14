/// The dimension value ids that identify one stored series (0 means the event had no value).
struct SeriesKey: Hashable {
    var ids: (Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0, 0, 0, 0, 0)

    static let count = 9

    subscript(index: Int) -> Int64 {
        get {
            switch index {
            case 0: ids.0
            case 1: ids.1
            case 2: ids.2
            case 3: ids.3
            case 4: ids.4
            case 5: ids.5
            case 6: ids.6
            case 7: ids.7
            default: ids.8
            }
        }
        set {
            switch index {
            case 0: ids.0 = newValue
            case 1: ids.1 = newValue
            case 2: ids.2 = newValue
            case 3: ids.3 = newValue
            case 4: ids.4 = newValue
            case 5: ids.5 = newValue
            case 6: ids.6 = newValue
            case 7: ids.7 = newValue
            default: ids.8 = newValue
            }
        }
    }

    static func == (lhs: SeriesKey, rhs: SeriesKey) -> Bool {
        lhs.ids.0 == rhs.ids.0 && lhs.ids.1 == rhs.ids.1 && lhs.ids.2 == rhs.ids.2 && lhs.ids.3 == rhs.ids.3
            && lhs.ids.4 == rhs.ids.4 && lhs.ids.5 == rhs.ids.5 && lhs.ids.6 == rhs.ids.6 && lhs.ids.7 == rhs.ids.7
            && lhs.ids.8 == rhs.ids.8
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ids.0)
        hasher.combine(ids.1)
        hasher.combine(ids.2)
        hasher.combine(ids.3)
        hasher.combine(ids.4)
        hasher.combine(ids.5)
        hasher.combine(ids.6)
        hasher.combine(ids.7)
        hasher.combine(ids.8)
    }
}
