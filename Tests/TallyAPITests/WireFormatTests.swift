import Foundation
import Testing
import TallyAPI
import TallyCore

@Suite("The API's wire format")
struct WireFormatTests {
    struct Change: Codable, Equatable {
        var note: Patch<String>
    }

    @Test("A Patch tells a missing field from null and from a value, both ways")
    func patchRoundTrip() throws {
        let decode = { (json: String) in try APICoding.decoder.decode(Change.self, from: Data(json.utf8)).note }
        #expect(try decode("{}") == .unchanged)
        #expect(try decode(#"{"note":null}"#) == .cleared)
        #expect(try decode(#"{"note":"tea"}"#) == .set("tea"))
        #expect(throws: DecodingError.self) { try decode(#"{"note":3}"#) }

        let encode = { (note: Patch<String>) in String(decoding: try APICoding.encoder.encode(Change(note: note)), as: UTF8.self) }
        #expect(try encode(.unchanged) == "{}")
        #expect(try encode(.cleared) == #"{"note":null}"#)
        #expect(try encode(.set("tea")) == #"{"note":"tea"}"#)
        #expect(Patch<String>(.some(nil)) == .cleared)
        #expect(Patch<String>(nil) == .unchanged)
        #expect(Patch.cleared.change == .some(String?.none))
    }

    @Test("A route fills its path's parameters in order, escaped")
    func routePaths() {
        let ledger = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
        let id = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
        #expect(API.editLedgerEntry.path(ledger, id) == "ledgers/\(ledger)/entries/\(id)")
        #expect(API.editLedgerEntry.parameters == ["ledger", "id"])
        #expect(API.day.path(LocalDate(year: 2025, month: 3, day: 30)!) == "days/2025-03-30")
        #expect(API.day.path("a/b c") == "days/a%2Fb%20c")
        #expect(API.logDrink.description == "POST /api/v1/intakes")
    }

    @Test("A drink's volume is volumeMl or amount, exactly one")
    func volumeOrAmount() throws {
        func intake(_ json: String) throws -> VolumeAmount {
            try APICoding.decoder.decode(NewIntake.self, from: Data(json.utf8)).volume()
        }
        #expect(try intake(#"{"volumeMl":250}"#) == .milliliters(250))
        #expect(try intake(#"{"amount":"8oz"}"#) == .typed("8oz"))
        #expect(throws: TallyError.self) { try intake("{}") }
        #expect(throws: TallyError.self) { try intake(#"{"volumeMl":250,"amount":"250"}"#) }
        // A null volume names neither: refused as the wrong type, not read as absent.
        #expect(throws: DecodingError.self) { try intake(#"{"volumeMl":null,"amount":"250"}"#) }
        #expect(throws: DecodingError.self) { try intake(#"{"amount":null}"#) }
        let sent = try APICoding.encoder.encode(NewIntake(volume: .typed("250")))
        #expect(String(decoding: sent, as: UTF8.self) == #"{"amount":"250"}"#)
    }

    @Test("Problems map to the kinds of error a client reports, and back")
    func problemStatuses() {
        let kinds: [TallyError.Kind] = [.invalidInput, .notFound, .conflict, .unauthorized, .forbidden, .tooManyRequests, .busy, .storageFull,
                                        .unsupportedType, .tooLarge]
        for kind in kinds {
            #expect(Problem.kind(of: Problem.status(of: kind)) == kind)
        }
        // A database that cannot be written is, to a client, a server to try again later.
        #expect(Problem.status(of: .storageUnavailable) == 503 && Problem.status(of: .storageFull) == 507)
        // A file of a type not taken (a receipt that is no photo), a body too large; any other 4xx is input refused.
        #expect(Problem.status(of: .unsupportedType) == 415 && Problem.status(of: .tooLarge) == 413)
        #expect(Problem.kind(of: 422) == .invalidInput)
        #expect(Problem.kind(of: 500) == nil)
    }
}
