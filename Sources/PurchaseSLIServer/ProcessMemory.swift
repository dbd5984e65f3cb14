import CMallocTuning

/// How `serve` keeps its memory flat over a long run with glibc's allocator.
///
/// glibc gives each thread that allocates while another holds the lock an arena of its own, up to 8 per
/// core, and an arena's heap grows in 64 MB reservations whose freed pages mostly stay with the process.
/// Work that hops between threads (the cooperative pool, NIO's event loops, the minute's alert and render
/// jobs) touches arena after arena, so the resident memory climbs in 64 MB steps for hours (issue 64).
/// Capping the arenas at ``arenas`` and handing free pages back after the minute's work keeps it flat
/// (bench/serve-soak.sh; docs/benchmarks.md).
public enum ProcessMemory {
    /// The malloc arenas `serve` keeps: two, as the operator's `MALLOC_ARENA_MAX=2` workaround did.
    public static let arenas: Int32 = 2

    /// Caps the malloc arenas at ``arenas`` unless the environment sets `MALLOC_ARENA_MAX` (the operator's
    /// own setting wins). Call before any thread starts. Returns the cap set, or nil when none was (set by
    /// the environment, or another C library).
    @discardableResult
    public static func limitArenas(environment: [String: String]) -> Int32? {
        guard environment["MALLOC_ARENA_MAX"] == nil else { return nil }
        return purchase_sli_limit_malloc_arenas(arenas) == 1 ? arenas : nil
    }

    /// Hands the free pages of every arena back to the system (`malloc_trim(0)`); true when some were.
    @discardableResult
    public static func returnFreeMemory() -> Bool {
        purchase_sli_trim_malloc() == 1
    }
}
