/// The cardinality caps' rule, the one every backend's commit applies: on each UTC day a dimension admits
/// the first `cap` distinct values each app's events meet (and the first `cap` apps), each of which then
/// counts as itself in that app for the rest of the day, and a later value counts as `__other__`, so that
/// one app's catalog never pushes another app's values out; past the day's total ceiling of a dimension's
/// values (every app's together) no app admits more; the series cap admits the first series of each day and app the
/// same way, a later series counting in its action's (and app's) overflow series, so that one app's catalog
/// never pushes another app's series out; and past the day's total ceiling of series (every app's
/// together) no app admits more, so that events naming many invented apps cannot multiply the budget. The
/// keys are what the backend names a value or a series by (its text, or its id).
///
/// What a day admitted is the backend's to keep: it tells a slot's admissions on first sight (all of them,
/// or their number and those of the keys the commit asks about), applies ``decide(_:in:cap:load:)`` to
/// each event's key, writes what was admitted now, and stores the overflow counts.
package struct CapAdmission<Key: Hashable & Sendable>: Sendable {
    /// A day, what is capped on it (a dimension's storage code, or ``Schema/seriesCode`` for series) and,
    /// for series, the app whose budget it is.
    package struct Slot: Hashable, Sendable {
        /// The UTC day (days since the epoch).
        package var day: Int64
        /// The dimension's code.
        package var dimension: Int
        /// The app's value id in the backend (0: no app, and the slot of the apps themselves; -1: every app
        /// together, ``allValues(day:dimension:)`` and ``allSeries(day:)``).
        package var app: Int64

        /// The slot of the series cap of `app` (its value id in the backend, 0 for none) on `day`.
        package static func series(day: Int64, app: Int64) -> Slot { Slot(day: day, dimension: Schema.seriesCode, app: app) }

        /// The slot that counts every app's values of `dimension` (its code) on `day`, for the total ceiling.
        package static func allValues(day: Int64, dimension: Int) -> Slot { Slot(day: day, dimension: dimension, app: -1) }

        /// The slot that counts every app's series of `day`, for the total ceiling.
        package static func allSeries(day: Int64) -> Slot { Slot(day: day, dimension: Schema.seriesCode, app: -1) }

        /// Creates a slot.
        package init(day: Int64, dimension: Int, app: Int64 = 0) {
            self.day = day
            self.dimension = dimension
            self.app = app
        }
    }

    /// What counts as itself in a slot.
    package enum Decision: Sendable, Equatable {
        /// The key was admitted before: it counts as itself.
        case admitted
        /// The slot has room: the key counts as itself once the caller records it (``record(_:in:)``).
        case admitNow
        /// The slot is full: the event counts under `__other__` (and is counted as overflowed).
        case overflow
    }

    /// A slot's admissions as known: how many keys in all, and the keys known to be among them.
    private struct Tally: Sendable {
        var count: Int
        var members: Set<Key>
    }

    private var tallies: [Slot: Tally] = [:]
    /// Events counted under `__other__` per slot since the last ``takeOverflow()``.
    private var overflow: [Slot: Int] = [:]

    /// No slot known.
    package init() {}

    /// Whether the slot's admissions are known.
    package func isKnown(_ slot: Slot) -> Bool { tallies[slot] != nil }

    /// Whether the slot is known to hold `cap` admissions or more: a key not among them overflows.
    package func isFull(_ slot: Slot, cap: Int) -> Bool { (tallies[slot]?.count ?? 0) >= cap }

    /// Tells the slot's admissions in storage: `count` keys in all, among them `members` (every one, or at
    /// least each key the commit will ask about).
    package mutating func prime(_ slot: Slot, count: Int, members: Set<Key>) {
        tallies[slot] = Tally(count: max(count, members.count), members: members)
    }

    /// Whether `key` (nil: a value the backend has no id for yet, so never admitted) counts as itself in
    /// `slot` under `cap`. A slot not known yet is primed with `load`'s keys, the slot's every admission
    /// (`{ [] }` where the slot is primed beforehand, or where nothing but this value is the store).
    package mutating func decide(_ key: Key?, in slot: Slot, cap: Int, load: () throws -> Set<Key>) rethrows -> Decision {
        if tallies[slot] == nil {
            let members = try load()
            tallies[slot] = Tally(count: members.count, members: members)
        }
        if let key, tallies[slot]!.members.contains(key) { return .admitted }
        guard tallies[slot]!.count < cap else {
            overflow[slot, default: 0] += 1
            return .overflow
        }
        return .admitNow
    }

    /// Records `key` as admitted in `slot` (after ``Decision/admitNow``).
    package mutating func record(_ key: Key, in slot: Slot) {
        if tallies[slot, default: Tally(count: 0, members: [])].members.insert(key).inserted { tallies[slot]!.count += 1 }
    }

    /// ``decide(_:in:cap:load:)`` under a second cap, `total`'s (every app's series of the day): a key
    /// its own slot has room for overflows when `total` holds `totalCap` keys. `total` is primed beforehand.
    package mutating func decide(
        _ key: Key?, in slot: Slot, cap: Int, within total: Slot, totalCap: Int, load: () throws -> Set<Key>
    ) rethrows -> Decision {
        let decision = try decide(key, in: slot, cap: cap, load: load)
        guard decision == .admitNow, isFull(total, cap: totalCap) else { return decision }
        overflow[slot, default: 0] += 1
        return .overflow
    }

    /// Records `key` as admitted in `slot`, and one more key in `total` (whose members are not kept: its
    /// keys are its slots' keys), after ``Decision/admitNow`` under both caps.
    package mutating func record(_ key: Key, in slot: Slot, within total: Slot) {
        let before = tallies[slot]?.count ?? 0
        record(key, in: slot)
        if tallies[slot]!.count > before { tallies[total, default: Tally(count: 0, members: [])].count += 1 }
    }

    /// ``decide(_:in:cap:within:totalCap:load:)`` for a key the backend already names, recording it in both
    /// slots when admitted now.
    package mutating func admit(
        _ key: Key, in slot: Slot, cap: Int, within total: Slot, totalCap: Int, load: () throws -> Set<Key>
    ) rethrows -> Decision {
        let decision = try decide(key, in: slot, cap: cap, within: total, totalCap: totalCap, load: load)
        if decision == .admitNow { record(key, in: slot, within: total) }
        return decision
    }

    /// ``decide(_:in:cap:load:)`` for a key the backend already names, recording it when admitted now.
    package mutating func admit(_ key: Key, in slot: Slot, cap: Int, load: () throws -> Set<Key>) rethrows -> Decision {
        let decision = try decide(key, in: slot, cap: cap, load: load)
        if decision == .admitNow { record(key, in: slot) }
        return decision
    }

    /// Forgets the admissions of the days `isForgotten` says (storage keeps them, or has pruned them).
    package mutating func forget(days isForgotten: (Int64) -> Bool) {
        tallies = tallies.filter { !isForgotten($0.key.day) }
    }

    /// Returns and clears the events counted under `__other__`, per slot.
    package mutating func takeOverflow() -> [Slot: Int] {
        defer { overflow = [:] }
        return overflow
    }
}
