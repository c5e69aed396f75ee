import Foundation
import Testing
import TallyAPI
import TallyCore

@Suite("Problems")
struct ProblemTests {
    @Test("A problem carries its refusal's field, and a client reads it back as the same refusal")
    func fieldBothWays() throws {
        let refusal = TallyError.invalid("An expense must be more than 0.", field: "amount")
        let sent = try APICoding.encoder.encode(Problem(title: "Bad Request", status: Problem.status(of: refusal.kind), detail: refusal.message,
                                                        field: refusal.field))
        let json = try #require(JSONSerialization.jsonObject(with: sent) as? [String: Any])
        #expect(json["field"] as? String == "amount" && json["title"] as? String == "Bad Request" && json["status"] as? Int == 400)
        #expect(try APICoding.decoder.decode(Problem.self, from: sent).error == refusal)

        let whole = try APICoding.encoder.encode(Problem(title: "Conflict", status: 409, detail: "Taken."))
        #expect(String(decoding: whole, as: UTF8.self).contains("field") == false, "no field: left out, not null")
        let older = Data(#"{"type": "about:blank", "title": "Not Found", "status": 404, "detail": "No such ledger."}"#.utf8)
        #expect(try APICoding.decoder.decode(Problem.self, from: older).error == TallyError.notFound("No such ledger."))
        #expect(Problem(title: "Internal Server Error", status: 500, detail: "Boom.").error == nil)
    }
}
