import Foundation
import Testing
@testable import TallyCore

/// What people may type into names and free text: lengths in bytes as well as characters, one
/// form of each letter, and nothing invisible in names.
@Suite("User text")
struct UserTextTests {
    /// One "e" carrying 5,000 combining marks: one character, 10,001 bytes.
    static let zalgo = "e" + String(repeating: "\u{0301}", count: 5_000)

    static func member(_ name: String, id: Int = 1) -> LedgerMember {
        LedgerMember(id: MemberID(id), name: name, userID: nil)
    }

    @Test("A name of one character with 5,000 combining marks is refused by its byte length")
    func combiningMarks() throws {
        #expect(Self.zalgo.count == 1)
        #expect(throws: TallyError.self) { try LedgerRules.validateMemberName(Self.zalgo, among: []) }
        #expect(throws: TallyError.self) { try LedgerRules.validateLedgerName(Self.zalgo) }
        #expect(throws: TallyError.self) { try LedgerRules.validateCategory(Self.zalgo) }
        #expect(throws: TallyError.self) { try DrinkKind.validate(name: Self.zalgo, factor: 1) }
        #expect(throws: TallyError.self) { try LedgerRules.validateDescription(Self.zalgo) }
        #expect(throws: TallyError.self) { try Intake.validate(note: Self.zalgo) }
        do {
            _ = try LedgerRules.validateMemberName(Self.zalgo, among: [])
        } catch let error as TallyError {
            #expect(error.message == "A member's name needs 1 to 50 characters, and at most 200 bytes of UTF-8 (an accented letter or an emoji takes several).")
        }
    }

    @Test("Letters with accents and emoji up to the character limit still fit")
    func withinBytes() throws {
        let accented = String(repeating: "é", count: 50)
        #expect(try LedgerRules.validateMemberName(accented, among: []) == accented)
        let emoji = String(repeating: "👩‍👩‍👧", count: 3) + " Smith"
        #expect(try LedgerRules.validateLedgerName(emoji) == emoji)
        #expect(try DrinkKind.validate(name: "☕️ flat white", factor: 0.85) == "☕️ flat white")
    }

    @Test("Names are stored composed (NFC)")
    func composed() throws {
        let decomposed = "Zoe\u{0308}"
        let stored = try LedgerRules.validateMemberName(decomposed, among: [])
        #expect(Array(stored.unicodeScalars) == Array("Zo\u{00EB}".unicodeScalars))
        let note = try #require(try Intake.validate(note: "cafe\u{0301}"))
        #expect(Array(note.unicodeScalars) == Array("caf\u{00E9}".unicodeScalars))
    }

    @Test("A member name that differs from another only by case or composition is refused")
    func sameNameTwice() throws {
        let zoe = Self.member("Zo\u{00EB}")
        #expect(throws: TallyError.self) { try LedgerRules.validateMemberName("Zoe\u{0308}", among: [zoe]) }
        #expect(throws: TallyError.self) { try LedgerRules.validateMemberName("ZOE\u{0308}", among: [zoe]) }
        // stored before names were composed: still the same name
        #expect(throws: TallyError.self) { try LedgerRules.validateMemberName("zoë", among: [Self.member("Zoe\u{0308}")]) }
        #expect(try LedgerRules.member(named: "ZOE\u{0308}", in: [zoe]).id == zoe.id)
        #expect(try LedgerRules.validateMemberName("Zoe", among: [zoe]) == "Zoe")
    }

    @Test("A member name that only looks like another (UTS #39 skeleton) is refused, and says which it looks like",
          arguments: ["\u{0410}lice", "\u{0430}lice", "A\u{04C0}ice", "Al\u{0456}ce", "AI\u{0456}ce", "A1ice", "\u{0391}lice"])
    func lookAlikeNames(_ name: String) throws {
        let alice = Self.member("Alice")
        let refused = try #require(throws: TallyError.self) { try LedgerRules.validateMemberName(name, among: [alice]) }
        #expect(refused.kind == .conflict && refused.message.contains("Alice"), "\(refused)")
        #expect(UserText.sameName(name, "Alice"))
    }

    @Test("An import's lookups (MemberNames) find who LedgerRules finds, however often a name comes, and refuse alike")
    func memberNamesAgree() throws {
        let members = ["Alice", "Zo\u{00EB}", "Sam", "Ida"].enumerated().map { LedgerMember(id: Int64($0.offset + 1), name: $0.element, userID: nil) }
        let found = MemberNames(members)
        for name in ["alice", "\u{0410}lice", "A1ice", " Sam ", "ZOE\u{0308}", "Ida", "Zoe", "Ada", "", "\u{202E}Sam"] {
            for _ in 1...2 {  // the second time from what the first found
                let expected = Result { try LedgerRules.member(named: name, in: members) }
                let got = Result { try found.member(named: name) }
                switch (expected, got) {
                case let (.success(a), .success(b)): #expect(a == b, "\(name)")
                case let (.failure(a), .failure(b)): #expect(a as? TallyError == b as? TallyError, "\(name)")
                default: Issue.record("\(name): \(expected) but \(got)")
                }
            }
        }
        #expect(try found.member(named: "\u{0410}lice").name == "Alice")
        #expect(throws: TallyError.invalid("\"Zoe\" is not a member of this ledger: use one of Alice, Zo\u{00EB}, Sam, Ida.")) {
            try found.member(named: "Zoe")
        }
    }

    @Test("Different names are still different: the skeleton joins look-alikes only")
    func differentNamesStayApart() throws {
        for (a, b) in [("Alice", "Alicia"), ("Ada", "Ida"), ("Sam", "Sami"), ("Zoë", "Zoe"), ("Anna", "Ana")] {
            #expect(!UserText.sameName(a, b), "\(a) and \(b)")
        }
        #expect(UserText.confusableSkeleton("paypa1") == UserText.confusableSkeleton("paypal"))
        #expect(try LedgerRules.validateMemberName("Alicia", among: [Self.member("Alice")]) == "Alicia")
    }

    @Test("Names refuse invisible format characters", arguments: [
        "Sa\u{200B}m", "\u{202E}maS", "Sa\u{2066}m\u{2069}", "Sam\u{FEFF}x", "S\u{00AD}am", "Sam\u{200D}",
    ])
    func formatCharactersInNames(_ name: String) throws {
        #expect(throws: TallyError.self) { try LedgerRules.validateMemberName(name, among: []) }
        #expect(throws: TallyError.self) { try LedgerRules.validateLedgerName(name) }
        #expect(throws: TallyError.self) { try LedgerRules.validateCategory(name) }
        #expect(throws: TallyError.self) { try DrinkKind.validate(name: name, factor: 1) }
    }

    @Test("Names keep the joiners of emoji sequences and of Persian and Indic writing", arguments: [
        "👩‍👩‍👧", "🏳️‍🌈 party", "🏴󠁧󠁢󠁳󠁣󠁴󠁿 trip", "می‌خواهم", "क्‍ष",
    ])
    func joinersInNames(_ name: String) throws {
        #expect(try LedgerRules.validateMemberName(name, among: []) == name.precomposedStringWithCanonicalMapping)
    }

    @Test("Free text keeps joiners and direction marks but refuses bidi overrides")
    func freeText() throws {
        #expect(try LedgerRules.validateDescription("Dinner \u{200F}שלום\u{200E} ok") != nil)
        #expect(try Intake.validate(note: "after the run\nwith Sam") == "after the run\nwith Sam")
        #expect(throws: TallyError.self) { try LedgerRules.validateDescription("Refund \u{202E}0001\u{202C}") }
        #expect(throws: TallyError.self) { try Intake.validate(note: "\u{2067}hidden") }
    }
}
