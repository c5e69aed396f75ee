import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TallyCore
import TallyRepositories
@testable import TallyServer
import TallyServices
import Testing

/// A2 through the API: a person's drinks out as CSV and back in, all or nothing.
@Suite("CSV of drinks API (A2)")
struct DrinkCSVAPITests {
    func upload(_ client: TestClientProtocol, _ csv: String, token: String?, query: String = "") async throws -> Answer {
        var headers: HTTPFields = [.contentType: "text/csv"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: "/api/v1/import/csv" + query, method: .post, headers: headers, body: ByteBuffer(string: csv)) {
            Answer(status: $0.status, headers: $0.headers, body: Data(buffer: $0.body))
        }
    }

    @Test("A2: the export, streamed with its name, imported by another person gives the same day; again, nothing twice")
    func roundTrip() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            for json in [#"{"volumeMl": 250, "kind": "coffee", "note": "=HYPERLINK(\"x\"), ok", "at": "2025-06-14T21:59:00Z"}"#,
                         #"{"volumeMl": 500, "at": "2025-06-15T06:30:00Z"}"#] {
                #expect(try await client.send(.post, "/api/v1/intakes", token: f.adaToken, json: json).status == .created)
            }
            #expect(try await client.send(.post, "/api/v1/removals", token: f.adaToken, json: #"{"volumeMl": 100}"#).status == .created)
            let export = try await client.send(.get, "/api/v1/export/csv", token: f.adaToken)
            #expect(export.status == .ok)
            #expect(export.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(export.headers[.contentDisposition] == "attachment; filename=\"tally-drinks-2025-06-15.csv\"")
            let lines = export.text.components(separatedBy: "\r\n")
            #expect(lines.first == "time,day,type,volume_ml,kind,factor,effective_ml,note,source,id")
            #expect(lines[1].hasPrefix("2025-06-14T23:59:00+02:00,2025-06-14,drink,250,coffee,0.85,212.5,\"'=HYPERLINK(\"\"x\"\"), ok\",manual,"))
            #expect(lines.count == 5 && lines[4].isEmpty)

            // ada's own file adds nothing to ada; bob gets the same days under ids of his own, once.
            let again = try await upload(client, export.text, token: f.adaToken)
            #expect(again.status == .ok, "\(again)")
            #expect(try again.json() as NSDictionary == ["drinksAdded": 0, "removalsAdded": 0, "alreadyThere": 3, "newKinds": []])
            for expected in [(HTTPResponse.Status.created, 2, 1, 0), (.ok, 0, 0, 3)] {
                let bobs = try await upload(client, export.text, token: f.bobToken)
                #expect(bobs.status == expected.0, "\(bobs)")
                #expect(try bobs.json() as NSDictionary == ["drinksAdded": expected.1, "removalsAdded": expected.2, "alreadyThere": expected.3, "newKinds": []])
            }
            for date in ["2025-06-14", "2025-06-15"] {
                let adas = try await client.send(.get, "/api/v1/days/\(date)", token: f.adaToken).json()
                let bobs = try await client.send(.get, "/api/v1/days/\(date)", token: f.bobToken).json()
                #expect(adas["totalMl"] as? Double == bobs["totalMl"] as? Double)
                #expect((adas["entries"] as? [Any])?.count == (bobs["entries"] as? [Any])?.count)
            }
            #expect(try await client.send(.get, "/api/v1/days/2025-06-15", token: f.bobToken).json()["totalMl"] as? Double == 400)
        }
    }

    @Test("A2: a bad line refuses the file with its line and column, as a problem; nothing is imported")
    func badLine() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let csv = "date,time,amount,unit\r\n2025-06-14,08:00,250,ml\r\n2025-06-14,09:00,lots,ml\r\n"
            let refused = try await upload(client, csv, token: f.adaToken)
            #expect(refused.status == .badRequest)
            #expect(refused.headers[.contentType] == "application/problem+json")
            #expect(try refused.json()["detail"] as? String == """
                Nothing was imported: 1 line is wrong.
                Line 3, column amount: "lots" is not an amount: write a number such as 250 or 212.5.
                """)
            #expect(try await client.send(.get, "/api/v1/days/2025-06-14", token: f.adaToken).json()["totalMl"] as? Double == 0)
            // Without a unit in the file, the query gives it; a unit that is neither is refused.
            let noUnit = "date,time,amount\n2025-06-14,08:00,8\n"
            #expect(try await upload(client, noUnit, token: f.adaToken).status == .badRequest)
            #expect(try await upload(client, noUnit, token: f.adaToken, query: "?unit=cups").status == .badRequest)
            let ounces = try await upload(client, noUnit, token: f.adaToken, query: "?unit=oz")
            #expect(ounces.status == .created, "\(ounces)")
            #expect(try await client.send(.get, "/api/v1/days/2025-06-14", token: f.adaToken).json()["totalMl"] as? Double == 8 * 29.5735)
            #expect(try await upload(client, "", token: f.adaToken).status == .badRequest)
            #expect(try await upload(client, noUnit, token: nil).status == .unauthorized)
            #expect(try await client.send(.get, "/api/v1/export/csv", token: nil).status == .unauthorized)
        }
    }
}
