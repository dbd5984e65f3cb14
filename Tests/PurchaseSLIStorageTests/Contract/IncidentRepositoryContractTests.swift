import PurchaseSLICore
import PurchaseSLIStorage
import Testing

/// What ``IncidentRepository`` does on each backend, with the same records and expectations.
@Suite("Incident record contract: kept per app and id, acknowledged, read by span and status, removed by a rebuild")
struct IncidentRepositoryContractTests {
    private func incident(
        _ id: String, app: String = "com.example.coins", start: String, end: String? = nil, status: String = "open",
        document: String = #"{"cost":{"usd":99.8}}"#
    ) -> StoredIncident {
        StoredIncident(
            app: app, id: id, startSeconds: seconds(start), endSeconds: end.map(seconds), status: status,
            readAtSeconds: seconds("2026-11-21T00:00:00Z"), document: document)
    }

    /// Every record kept, of every app, whatever its span and status.
    private func everything(_ store: IncidentRepository) async throws -> [StoredIncident] {
        try await store.incidents(app: nil, fromSeconds: .min, toSeconds: .max, statuses: nil)
    }

    @Test("saved records read back equal, by start then app and id; the last of an app and id given twice is kept", arguments: Backend.all)
    func savedAndReadBack(_ backend: Backend) async throws {
        let store = IncidentRepository(try await backend.store().sql)
        let resolved = incident(
            "20261120-0000-9c1f2e", start: "2026-11-20T00:00:00Z", end: "2026-11-20T19:01:00Z", status: "resolved",
            document: "{\"title\":\"Charges \\\"not granted\\\" — 20 × coins_500\",\n\"usd\":99.8,\"note\":\"ünïcödé ✓\"}")
        let open = incident("20261120-0000-1a2b3c", app: "com.example.premium", start: "2026-11-20T00:00:00Z")
        let sameStart = incident("20261120-0000-0f0f0f", start: "2026-11-20T00:00:00Z", status: "settled")
        let earlier = incident("20261119-2200-abcdef", app: "", start: "2026-11-19T22:00:00Z", end: "2026-11-19T23:00:00Z")
        var replaced = earlier
        replaced.document = "{}"
        try await store.save([open, replaced, resolved, sameStart, earlier])
        #expect(try await everything(store) == [earlier, sameStart, resolved, open])
        try await store.save([])
        #expect(try await everything(store).count == 4)
    }

    @Test("a second save replaces the figures and keeps the acknowledgement given between; none is taken from a record", arguments: Backend.all)
    func acknowledgementKept(_ backend: Backend) async throws {
        let store = IncidentRepository(try await backend.store().sql)
        var first = incident("20261120-0000-9c1f2e", start: "2026-11-20T00:00:00Z")
        first.acknowledgement = IncidentAcknowledgement(owner: "ignored", note: "a record's own is ignored", atSeconds: 1)
        try await store.save([first])
        #expect(try await everything(store).map(\.acknowledgement) == [nil])
        let acknowledgement = IncidentAcknowledgement(
            owner: "Ana", note: "granting the 20 charges by hand, see #ops-4411", atSeconds: seconds("2026-11-20T01:10:00Z"))
        #expect(try await store.acknowledge(app: "com.example.coins", id: "20261120-0000-9c1f2e", acknowledgement))
        var second = incident(
            "20261120-0000-9c1f2e", start: "2026-11-20T00:00:00Z", end: "2026-11-20T19:01:00Z", status: "resolved", document: #"{"usd":74.85}"#)
        second.readAtSeconds = seconds("2026-11-22T00:00:00Z")
        try await store.save([second])
        var expected = second
        expected.acknowledgement = acknowledgement
        #expect(try await everything(store) == [expected])
        // Another acknowledgement replaces the first; none is kept for a record of another app or id.
        let handedOver = IncidentAcknowledgement(owner: "Bo", note: "", atSeconds: seconds("2026-11-22T09:00:00Z"))
        #expect(try await store.acknowledge(app: "com.example.coins", id: "20261120-0000-9c1f2e", handedOver))
        #expect(try await store.acknowledge(app: "com.example.coins", id: "20261120-0000-000000", acknowledgement) == false)
        #expect(try await store.acknowledge(app: "com.example.premium", id: "20261120-0000-9c1f2e", acknowledgement) == false)
        #expect(try await store.acknowledge(app: "", id: "20261120-0000-9c1f2e", acknowledgement) == false)
        expected.acknowledgement = handedOver
        #expect(try await everything(store) == [expected])
        #expect(
            try await store.incident(app: "com.example.coins", id: "20261120-0000-9c1f2e", startSeconds: seconds("2026-11-20T00:00:00Z")) == expected)
    }

    @Test("read by span (started before its end; not ended, or ended after its start) and by status", arguments: Backend.all)
    func spanAndStatus(_ backend: Backend) async throws {
        let store = IncidentRepository(try await backend.store().sql)
        try await store.save([
            incident("early", start: "2026-11-20T08:00:00Z", end: "2026-11-20T10:30:00Z", status: "settled"),
            incident("ten", start: "2026-11-20T10:00:00Z", end: "2026-11-20T11:00:00Z", status: "resolved"),
            incident("noon", start: "2026-11-20T12:00:00Z"),
            incident("one", start: "2026-11-20T13:00:00Z", end: "2026-11-20T14:00:00Z", status: "resolved"),
        ])
        func ids(_ from: String, _ to: String, _ statuses: Set<String>? = nil) async throws -> [String] {
            try await store.incidents(app: "com.example.coins", fromSeconds: seconds(from), toSeconds: seconds(to), statuses: statuses).map(\.id)
        }
        // Ended at the range's start, or starting at its end: outside; still open: inside whatever the end.
        await #expect(try ids("2026-11-20T11:00:00Z", "2026-11-20T13:00:00Z") == ["noon"])
        await #expect(try ids("2026-11-20T10:59:00Z", "2026-11-20T13:01:00Z") == ["ten", "noon", "one"])
        await #expect(try ids("2026-11-20T10:29:00Z", "2026-11-20T10:31:00Z") == ["early", "ten"])
        await #expect(try ids("2026-11-25T00:00:00Z", "2026-11-26T00:00:00Z") == ["noon"])
        await #expect(try ids("2026-11-19T00:00:00Z", "2026-11-20T08:00:00Z").isEmpty)
        await #expect(try ids("2026-11-20T00:00:00Z", "2026-11-21T00:00:00Z", ["resolved"]) == ["ten", "one"])
        await #expect(try ids("2026-11-20T00:00:00Z", "2026-11-21T00:00:00Z", ["open", "settled"]) == ["early", "noon"])
        await #expect(try ids("2026-11-20T00:00:00Z", "2026-11-21T00:00:00Z", []).isEmpty)
        await #expect(try ids("2026-11-20T00:00:00Z", "2026-11-21T00:00:00Z", ["closed"]).isEmpty)
    }

    @Test("no app reads every app's records; an app, its own alone (every app's included only when asked for \"\")", arguments: Backend.all)
    func byApp(_ backend: Backend) async throws {
        let store = IncidentRepository(try await backend.store().sql)
        try await store.save([
            incident("i1", app: "x", start: "2026-11-20T10:00:00Z"), incident("i1", app: "y", start: "2026-11-20T10:00:00Z"),
            incident("i2", app: "", start: "2026-11-20T09:00:00Z"), incident("i3", app: "x", start: "2026-11-20T11:00:00Z"),
        ])
        func keys(_ app: String?) async throws -> [String] {
            try await store.incidents(
                app: app, fromSeconds: seconds("2026-11-20T00:00:00Z"), toSeconds: seconds("2026-11-21T00:00:00Z"), statuses: nil
            )
            .map { "\($0.app)/\($0.id)" }
        }
        await #expect(try keys(nil) == ["/i2", "x/i1", "y/i1", "x/i3"])
        await #expect(try keys("x") == ["x/i1", "x/i3"])
        await #expect(try keys("y") == ["y/i1"])
        await #expect(try keys("") == ["/i2"])
        await #expect(try keys("z").isEmpty)
    }

    @Test("a rebuild's removal: the app's records starting in the range but those kept, counted; no other app's", arguments: Backend.all)
    func removal(_ backend: Backend) async throws {
        let store = IncidentRepository(try await backend.store().sql)
        try await store.save([
            incident("before", start: "2026-11-20T09:00:00Z", end: "2026-11-20T11:30:00Z"),
            incident("first", start: "2026-11-20T10:00:00Z"), incident("kept", start: "2026-11-20T11:00:00Z"),
            incident("last", start: "2026-11-20T12:59:00Z"), incident("after", start: "2026-11-20T13:00:00Z"),
            incident("first", app: "com.example.premium", start: "2026-11-20T10:00:00Z"),
        ])
        _ = try await store.acknowledge(app: "com.example.coins", id: "first", IncidentAcknowledgement(owner: "Ana", note: "", atSeconds: 0))
        let removed = try await store.remove(
            app: "com.example.coins", startingFrom: seconds("2026-11-20T10:00:00Z"), to: seconds("2026-11-20T13:00:00Z"), keeping: ["kept", "gone"])
        #expect(removed == 2)
        #expect(
            try await everything(store).map { "\($0.app)/\($0.id)" } == [
                "com.example.coins/before", "com.example.premium/first", "com.example.coins/kept", "com.example.coins/after",
            ])
        #expect(
            try await store.remove(
                app: "com.example.coins", startingFrom: seconds("2026-11-20T10:00:00Z"), to: seconds("2026-11-20T13:00:00Z"), keeping: ["kept"])
                == 0)
        #expect(try await store.remove(app: "com.example.coins", startingFrom: .min, to: .max, keeping: []) == 3)
        #expect(try await everything(store).map(\.app) == ["com.example.premium"])
        // A record saved again after its removal starts without the acknowledgement the removed one had.
        try await store.save([incident("first", start: "2026-11-20T10:00:00Z")])
        #expect(
            try await store.incidents(app: "com.example.coins", fromSeconds: .min, toSeconds: .max, statuses: nil).map(\.acknowledgement) == [nil])
    }

    @Test("one app's key never reads, acknowledges or removes another app's records (nor the book of every app's)", arguments: Backend.all)
    func appKey(_ backend: Backend) async throws {
        let store = IncidentRepository(try await backend.store().sql)
        try await store.save([
            incident("i1", app: "a", start: "2026-11-20T10:00:00Z"), incident("i1", app: "b", start: "2026-11-20T10:00:00Z"),
            incident("i2", app: "b", start: "2026-11-20T11:00:00Z"), incident("i3", app: "", start: "2026-11-20T12:00:00Z"),
        ])
        #expect(try await store.incidents(app: "a", fromSeconds: .min, toSeconds: .max, statuses: nil).map { "\($0.app)/\($0.id)" } == ["a/i1"])
        #expect(try await store.incidents(app: "", fromSeconds: .min, toSeconds: .max, statuses: nil).map { "\($0.app)/\($0.id)" } == ["/i3"])
        let acknowledgement = IncidentAcknowledgement(owner: "Ana", note: "mine", atSeconds: seconds("2026-11-20T10:30:00Z"))
        #expect(try await store.acknowledge(app: "a", id: "i2", acknowledgement) == false)
        #expect(try await store.acknowledge(app: "a", id: "i1", acknowledgement))
        #expect(
            try await everything(store).map { "\($0.app)/\($0.id) \($0.acknowledgement?.owner ?? "-")" } == ["a/i1 Ana", "b/i1 -", "b/i2 -", "/i3 -"])
        #expect(try await store.remove(app: "a", id: "i2") == false)
        #expect(try await store.remove(app: "a", startingFrom: .min, to: .max, keeping: []) == 1)
        #expect(try await everything(store).map { "\($0.app)/\($0.id)" } == ["b/i1", "b/i2", "/i3"])
        #expect(try await store.remove(app: "b", id: "i2"))
        #expect(try await everything(store).map { "\($0.app)/\($0.id)" } == ["b/i1", "/i3"])
    }
}
