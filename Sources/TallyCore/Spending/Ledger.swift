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
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if let member = members.first(where: { UserText.sameName($0.name, trimmed) }) {
            return member
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

/// One line of a ledger's history: an expense or a payment, with each member's share worked out.
public struct SpendingEntry: Hashable, Sendable, Identifiable {
    public let id: UUID
    public var kind: SpendingKind
    public private(set) var amount: Money
    /// Who paid, in member order: one member the whole amount, or several their parts.
    public private(set) var payers: [PayerPart]
    public var date: LocalDate
    public var description: String?
    public var category: String?
    public var split: Split
    public var createdAt: Date
    public var deletedAt: Date?

    /// One member paid the whole amount.
    public init(id: UUID, kind: SpendingKind, amount: Money, payer: MemberID, date: LocalDate,
                description: String?, category: String?, split: Split, createdAt: Date,
                deletedAt: Date? = nil, members: [LedgerMember]) throws {
        try self.init(id: id, kind: kind, amount: amount, payers: [PayerPart(member: payer, amount: amount)], date: date,
                      description: description, category: category, split: split, createdAt: createdAt,
                      deletedAt: deletedAt, members: members)
    }

    /// Checks the amount, who paid, the split and that everyone named belongs to `members`.
    public init(id: UUID, kind: SpendingKind, amount: Money, payers: [PayerPart], date: LocalDate,
                description: String?, category: String?, split: Split, createdAt: Date,
                deletedAt: Date? = nil, members: [LedgerMember]) throws {
        try TransactionAmount.validate(amount, what: kind.subject)
        let payers = try Payers.checked(payers, amount: amount, kind: kind, members: members)
        let known = Set(members.map(\.id))
        if let stranger = split.members.first(where: { !known.contains($0) }) {
            throw TallyError.invalid("Member \(stranger) is not in this ledger: split only among \(members.map(\.name).joined(separator: ", ")).")
        }
        if kind == .payment {
            guard split.members.count == 1, split.members[0] != payers[0].member else {
                throw TallyError.invalid("A payment goes from one member to another member.")
            }
        }
        self.id = id
        self.kind = kind
        self.amount = amount
        self.payers = payers
        self.date = date
        self.description = try LedgerRules.validateDescription(description)
        self.category = try LedgerRules.validateCategory(category)
        self.split = split
        self.createdAt = createdAt
        self.deletedAt = deletedAt
        _ = try shares
    }

    /// A payment of `amount` from `from` to `to`.
    public static func payment(id: UUID, from: MemberID, to: MemberID, amount: Money, date: LocalDate,
                               note: String?, createdAt: Date, members: [LedgerMember]) throws -> SpendingEntry {
        guard from != to else { throw TallyError.invalid("A payment goes from one member to another: pick two different members.") }
        let split = try Split(method: .exact, parts: [SplitPart(member: to, value: amount.decimal)])
        return try SpendingEntry(id: id, kind: .payment, amount: amount, payer: from, date: date, description: note,
                                 category: nil, split: split, createdAt: createdAt, members: members)
    }

    /// Each member's share, adding up to the amount.
    public var shares: [(member: MemberID, share: Money)] {
        get throws { try split.shares(of: amount) }
    }

    /// The one member who paid, or the first (in member order) of several.
    public var payer: MemberID { payers[0].member }

    /// Several members paid parts of it.
    public var hasSeveralPayers: Bool { payers.count > 1 }

    /// What `member` paid of it: nothing, part or all.
    public func paid(by member: MemberID) -> Money {
        payers.first { $0.member == member }?.amount ?? Money(minorUnits: 0, currency: amount.currency)
    }

    /// For a payment, who received it.
    public var recipient: MemberID? { kind == .payment ? split.members.first : nil }
}
