import Foundation
import Testing
import TallyAPI
import TallyCore

@Suite("Only known fields in a request")
struct KnownFieldsTests {
    func request<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try APICoding.decodeRequest(T.self, from: Data(json.utf8))
    }

    /// The refusal of `json` as a `T`.
    func refusal<T: Decodable>(_ type: T.Type, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> TallyError {
        do {
            _ = try request(type, json)
        } catch let error as TallyError {
            #expect(error.kind == .invalidInput, sourceLocation: sourceLocation)
            return error
        }
        Issue.record("\(json) was taken as a \(T.self)", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    @Test("A field the body's type does not read is refused by name, with the fields it has, in their order")
    func topLevel() throws {
        let drink = try refusal(NewIntake.self, #"{"volumeMl": 250, "colour": "red"}"#)
        #expect(drink.field == "colour")
        #expect(drink.message == #""colour" is not a field of this request: leave it out, or use one of id, volumeMl, amount, kind, at, note."#)
        #expect(try refusal(NewKind.self, #"{"name": "Tea", "factor": 1, "Factor": 1}"#).field == "Factor", "names are exact, in any case")
        let expense = try refusal(NewExpense.self, #"{"amount": "12.50", "colour": "red"}"#)
        #expect(expense.field == "colour")
        #expect(expense.message.hasPrefix(#""colour" is not a field of this request: leave it out, or use one of id, amount, payer, payers, date, "#))
        // Of several, the first by name: the same answer each time.
        #expect(try refusal(NewKind.self, #"{"name": "Tea", "factor": 1, "zeta": 1, "alpha": 2}"#).field == "alpha")
        // An empty name is named in the sentence; a problem's field is never empty.
        let empty = try refusal(PresetsChange.self, #"{"": null}"#)
        #expect(empty.field == nil && empty.message == #""" is not a field of this request: leave it out, or use one of amountsMl."#)
        #expect(try refusal(NewExpense.self, #"{"amount": "1", "split": {"method": "equal", "": 1}}"#).field == "split.")
        // Null is a value like any other: the field is still unknown.
        #expect(try refusal(SettingsChange.self, #"{"units": null}"#).field == "units")
        // A body whose fields are all optional, and a Patch field (read with contains).
        #expect(try refusal(IntakeChange.self, #"{"note": null, "notes": "x"}"#).message
            == #""notes" is not a field of this request: leave it out, or use one of volumeMl, kind, at, note."#)
    }

    @Test("Fields of nested objects, in lists too, are refused with their path")
    func nested() throws {
        let part = try refusal(NewExpense.self, """
            {"amount": "10", "split": {"method": "shares", "parts": [{"member": 1, "value": 2}, {"member": 2, "weight": 1}]}}
            """)
        #expect(part.field == "split.parts[1].weight")
        #expect(part.message == #""split.parts[1].weight" is not a field of this request: leave it out, or use one of member, value."#)
        #expect(try refusal(NewExpense.self, #"{"amount": "10", "split": {"method": "equal", "among": [1]}}"#).field == "split.among")
        #expect(try refusal(EntryChangeBody.self, #"{"payers": [{"member": 1, "paid": "5", "note": "cash"}]}"#).field == "payers[0].note")
        #expect(try refusal(NewRecurringExpense.self, #"{"amount": "800", "repeat": {"every": "month", "day": 1, "hour": 9}}"#).field
            == "repeat.hour")
        #expect(try refusal(ReminderSettings.self, """
            {"enabled": true, "window": {"wake": "07:00", "sleep": "22:00", "nap": "14:00"}, "frequency": 2}
            """).field == "window.nap")
        #expect(try refusal(PushSubscriptionBody.self, #"{"endpoint": "https://push.example/1", "keys": {"p256dh": "a", "auth": "b", "x": "c"}}"#)
            .field == "keys.x")
        // The outer object's unknown field first.
        #expect(try refusal(NewExpense.self, #"{"amount": "10", "zz": 1, "split": {"method": "equal", "aa": 1}}"#).field == "zz")
    }

    @Test("Bodies with only known fields read as the JSON decoder reads them, and its errors stay its own")
    func knownFieldsAsBefore() throws {
        let json = """
            {"id": "6F9619FF-8B86-D011-B42D-00C04FC964FF", "amount": 12.5, "payer": null, "payers": [{"member": 1, "paid": "7.50"},
             {"member": 2, "paid": 5}], "date": "2025-06-01", "description": "Lunch", "category": null,
             "split": {"method": "exact", "parts": [{"member": 1, "value": "6.25"}, {"member": 2, "value": 6.25}]}}
            """
        let strict = try request(NewExpense.self, json)
        let lenient = try APICoding.decoder.decode(NewExpense.self, from: Data(json.utf8))
        #expect(try APICoding.encoder.encode(strict) == APICoding.encoder.encode(lenient))
        #expect(strict.amount == .decimal(Decimal(string: "12.5")!) && strict.payers?[1].paid == .decimal(5))

        let change = try request(EntryChangeBody.self, #"{"description": null, "category": "Food"}"#)
        #expect(change.description == .cleared && change.category == .set("Food") && change.amount == nil)
        // Dates by the API's strategy, with or without fractional seconds.
        let drink = try request(NewIntake.self, #"{"volumeMl": 250, "at": "2025-06-14T12:00:00.123Z"}"#)
        #expect(drink.at != nil && drink.at == InternetTime.instant("2025-06-14T12:00:00.123Z"))
        #expect(try request(InviteRequest.self, "{}").days == nil)
        #expect(try request(ReminderSettings.self, #"{"enabled": true, "window": {"wake": "07:00", "sleep": "22:00"}, "frequency": 2}"#).frequency == 2)

        for bad in [#"{"volumeMl": "250"}"#, #"{"volumeMl": 250, "at": "yesterday"}"#, #"{"volumeMl": null}"#, "[250]", #"{"volumeMl": 250"#] {
            #expect(throws: DecodingError.self, "\(bad)") { try request(NewIntake.self, bad) }
        }
        do {
            _ = try request(NewExpense.self, #"{"amount": "10", "split": {"method": "equal", "parts": [{"value": 1}]}}"#)
            Issue.record("a part without its member was taken")
        } catch DecodingError.keyNotFound(let key, let context) {
            #expect(APICoding.fieldName(context.codingPath + [key]) == "split.parts[0].member")
        }
    }

    struct Note: Codable {
        var text: String
    }

    struct Noted: Codable {
        var note: Note?
        var tags: [String: Int]?
    }

    /// Reads `type`, then hands the same object to a `Note`: two containers, one object.
    struct Tagged: Decodable {
        var type: String
        var note: Note

        enum Keys: String, CodingKey { case type }

        init(from decoder: any Decoder) throws {
            type = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .type)
            note = try Note(from: decoder)
        }
    }

    /// An amount as a note or as a number: the shape it did not take leaves nothing behind.
    enum NoteOrNumber: Decodable {
        case note(Note), number(Double)

        init(from decoder: any Decoder) throws {
            if let note = try? Note(from: decoder) { self = .note(note) } else { self = .number(try decoder.singleValueContainer().decode(Double.self)) }
        }
    }

    struct Shapes: Decodable {
        var values: [NoteOrNumber]
    }

    @Test("Which fields a type knows is what its init(from:) reads: a synthesized field is known at once, also behind try? and shared objects")
    func whatATypeReads() throws {
        #expect(try request(Noted.self, #"{"note": {"text": "hi"}, "tags": {"any": 1, "key": 2}}"#).tags?.count == 2, "a dictionary reads all its keys")
        #expect(try refusal(Noted.self, #"{"note": {"text": "hi", "mood": "good"}}"#).field == "note.mood")
        #expect(try request(Tagged.self, #"{"type": "note", "text": "hi"}"#).note.text == "hi")
        #expect(try refusal(Tagged.self, #"{"type": "note", "text": "hi", "size": 1}"#).message
            == #""size" is not a field of this request: leave it out, or use one of type, text."#)
        #expect(try request(Shapes.self, #"{"values": [{"text": "a"}, 2]}"#).values.count == 2)
        #expect(try refusal(Shapes.self, #"{"values": [{"text": "a", "b": 1}]}"#).field == "values[0].b")
    }

    @Test("What the command line sends is read back as it was sent")
    func clientBodies() throws {
        let expense = NewExpense(amount: .text("12.50"), payers: [PayerBody(member: 1, paid: .text("12.50"))], date: LocalDate(year: 2025, month: 6, day: 1),
                                 description: "Lunch", split: SplitBody(method: .shares, parts: [.init(member: 1, value: .text("2"))]))
        let sent = try APICoding.encoder.encode(expense)
        #expect(try APICoding.encoder.encode(APICoding.decodeRequest(NewExpense.self, from: sent)) == sent)
        let change = EntryChangeBody(amount: .text("3"), description: .cleared, category: .set("Food"))
        let changed = try APICoding.encoder.encode(change)
        #expect(try APICoding.encoder.encode(APICoding.decodeRequest(EntryChangeBody.self, from: changed)) == changed)
        let recurring = try APICoding.encoder.encode(NewRecurringExpense(amount: .text("800"), repeat: RepeatBody(every: .month, day: 1)))
        #expect(try APICoding.encoder.encode(APICoding.decodeRequest(NewRecurringExpense.self, from: recurring)) == recurring)
        let drink = try APICoding.encoder.encode(NewIntake(id: UUID(), volume: .milliliters(250), kind: "tea", at: Date(timeIntervalSince1970: 1_750_000_000)))
        #expect(try APICoding.encoder.encode(APICoding.decodeRequest(NewIntake.self, from: drink)) == drink)
    }
}
