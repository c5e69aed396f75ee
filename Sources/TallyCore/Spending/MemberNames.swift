import Synchronization

/// A ledger's members found by name as `LedgerRules.member(named:in:)` finds them, for work that
/// names the same people row after row (an import, a restore): each member's name is keyed once,
/// and each distinct name looked up once, so that the work grows with the rows, not with rows ×
/// members².
public final class MemberNames: Sendable {
    private let members: [LedgerMember]
    private let keys: [UserText.NameKey]
    private let found = Mutex<[String: Result<LedgerMember, TallyError>]>([:])

    public init(_ members: [LedgerMember]) {
        self.members = members
        keys = members.map { UserText.NameKey($0.name) }
    }

    /// The member called `name`, or the error `LedgerRules.member(named:in:)` gives.
    public func member(named name: String) throws -> LedgerMember {
        if let known = found.withLock({ $0[name] }) { return try known.get() }
        let result = Result { () throws(TallyError) in try LedgerRules.member(named: name, in: members, keys: keys) }
        found.withLock { $0[name] = result }
        return try result.get()
    }
}
