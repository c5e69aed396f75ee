import Foundation

/// A shared ledger (S1): its members split expenses in one currency.
public struct Ledger: Hashable, Sendable, Identifiable {
    public let id: UUID
    public var name: String
    public var currency: Currency
    public let createdAt: Date

    public init(id: UUID, name: String, currency: Currency, createdAt: Date) {
        self.id = id
        self.name = name
        self.currency = currency
        self.createdAt = createdAt
    }
}

/// A person in a ledger, who may be linked to a user account (S1).
public struct LedgerMember: Hashable, Sendable, Identifiable {
    public let id: MemberID
    public var name: String
    /// The account that acts as this member, if any.
    public var userID: UUID?

    public init(id: MemberID, name: String, userID: UUID?) {
        self.id = id
        self.name = name
        self.userID = userID
    }
}

/// What a ledger, its members and its entries may be (S1, S2).
public enum LedgerRules {
    /// A new ledger's members, as in seed 004.
    public static let defaultMemberNames = ["Person 1", "Person 2"]
    public static let maximumMembers = 50
    public static let nameLength = 1...100
    public static let memberNameLength = 1...50
    public static let maximumDescriptionLength = 200
    public static let maximumCategoryLength = 50

    public static func validateLedgerName(_ name: String) throws -> String {
        try TallyError.about("name") { try ledgerName(name) }
    }

    private static func ledgerName(_ name: String) throws -> String {
        let trimmed = try UserText.name(name, Phrase("A ledger's name"))
        guard !trimmed.isEmpty, UserText.fits(trimmed, maximumLength: nameLength.upperBound) else {
            throw TallyError.invalid("A ledger's name needs 1 to 100 characters, and at most \(UserText.maximumBytes(forLength: nameLength.upperBound)) bytes of UTF-8 (an accented letter or an emoji takes several).")
        }
        return trimmed
    }

    /// The name trimmed; unique in its ledger regardless of case and composition, since people
    /// pick payers by name.
    public static func validateMemberName(_ name: String, among others: [LedgerMember]) throws -> String {
        try TallyError.about("name") { try memberName(name, among: others) }
    }

    private static func memberName(_ name: String, among others: [LedgerMember]) throws -> String {
        let trimmed = try UserText.name(name, Phrase("A member's name"))
        guard !trimmed.isEmpty, UserText.fits(trimmed, maximumLength: memberNameLength.upperBound) else {
            throw TallyError.invalid("A member's name needs 1 to 50 characters, and at most \(UserText.maximumBytes(forLength: memberNameLength.upperBound)) bytes of UTF-8 (an accented letter or an emoji takes several).")
        }
        if let other = others.first(where: { UserText.sameName($0.name, trimmed) }) {
            guard UserText.comparisonKey(other.name) == UserText.comparisonKey(trimmed) else {
                throw TallyError.conflict("This ledger already has a member called \(other.name), and \(UserText.quoted(trimmed)) looks the same: pick another name.")
            }
            throw TallyError.conflict("This ledger already has a member called \(trimmed): pick another name.")
        }
        return trimmed
    }

    /// "Person 3" for a third member, or the next "Person n" no member is called.
    public static func unusedPersonName(among members: [LedgerMember]) -> String {
        var number = members.count + 1
        while members.contains(where: { $0.name.caseInsensitiveCompare("Person \(number)") == .orderedSame }) { number += 1 }
        return "Person \(number)"
    }

    public static func checkRoomForMember(count: Int) throws {
        guard count < maximumMembers else {
            throw TallyError.conflict("A ledger can have at most \(maximumMembers) members, and this one is full.")
        }
    }

    /// The description trimmed, or nil when empty.
    public static func validateDescription(_ text: String?) throws -> String? {
        try TallyError.about("description") { try description(text) }
    }

    private static func description(_ text: String?) throws -> String? {
        guard let text, case let trimmed = try UserText.freeText(text, Phrase("A description")), !trimmed.isEmpty
        else { return nil }
        guard UserText.fits(trimmed, maximumLength: maximumDescriptionLength) else {
            throw TallyError.invalid("A description can be at most \(maximumDescriptionLength) characters long (and \(UserText.maximumBytes(forLength: maximumDescriptionLength)) bytes of UTF-8); this one has \(trimmed.count) characters in \(trimmed.utf8.count) bytes.")
        }
        return trimmed
    }

    public static func validateCategory(_ text: String?) throws -> String? {
        try TallyError.about("category") { try category(text) }
    }

    private static func category(_ text: String?) throws -> String? {
        guard let text, case let trimmed = try UserText.name(text, Phrase("A category")), !trimmed.isEmpty else { return nil }
        guard UserText.fits(trimmed, maximumLength: maximumCategoryLength) else {
            throw TallyError.invalid("A category can be at most \(maximumCategoryLength) characters long (and \(UserText.maximumBytes(forLength: maximumCategoryLength)) bytes of UTF-8).")
        }
        return trimmed
    }

    /// The member called `name` (any case or composition), or an error that lists the members there are.
    public static func member(named name: String, in members: [LedgerMember]) throws -> LedgerMember {
        try member(named: name, in: members, keys: members.map { UserText.NameKey($0.name) })
    }

    /// `member(named:in:)` with the members' name keys made already (`keys[i]` is `members[i]`'s).
    static func member(named name: String, in members: [LedgerMember], keys: [UserText.NameKey]) throws(TallyError) -> LedgerMember {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let key = UserText.NameKey(trimmed)
        if let index = keys.firstIndex(where: { $0.isSame(as: key) }) {
            return members[index]
        }
        throw TallyError.invalid("\"\(trimmed)\" is not a member of this ledger: use one of \(members.map(\.name).joined(separator: ", ")).")
    }
}

/// An expense, or a payment between members (S2, S4).
public enum SpendingKind: String, NamedChoice, Sendable {
    case expense
    /// A payment from the payer to one member, stored as an expense that member owes in full,
    /// so it moves balances exactly the way an expense does.
    case payment

    /// "An expense" or "A payment": what a refusal about its amount starts with.
    public var subject: Phrase {
        switch self {
        case .expense: Phrase("An expense")
        case .payment: Phrase("A payment")
        }
    }
}
