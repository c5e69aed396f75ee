import Foundation
import TallyAPI
import TallyCore
import TallyServices

/// Another app's export of a shared ledger, read and ready to import (S6): the one way the API,
/// the web form and the command line bring either app's file in.
public enum OtherAppExport: Sendable {
    case ihatemoney([IHateMoneyBill])
    case splitwise(SplitwiseExport)

    /// The apps whose exports Tally reads, by the name the API's path and the web form use.
    public enum App: String, Sendable, CaseIterable {
        case ihatemoney, splitwise

        /// The app's own name: a new ledger's name when none is given.
        public var name: String {
            switch self {
            case .ihatemoney: "IHateMoney"
            case .splitwise: "Splitwise"
            }
        }
    }

    /// Reads `data` as `app`'s export (IHateMoney's JSON or CSV, Splitwise's CSV), refusing it
    /// with a sentence that says what is wrong.
    public init(_ data: Data, from app: App) throws {
        switch app {
        case .ihatemoney: self = .ihatemoney(try IHateMoneyExport.bills(from: data))
        case .splitwise: self = .splitwise(try SplitwiseExport(csv: data))
        }
    }

    /// Imports into `ledger`, or into a new ledger called `name`; `currency` chooses the ledger's
    /// currency, and `rates` convert entries in other currencies.
    public func importInto(_ ledger: UUID?, name: String, currency: String?, rates: ImportRates,
                           spending: SpendingService) async throws -> IHateMoneyImportReport {
        switch self {
        case .ihatemoney(let bills):
            try await IHateMoneyImporter(spending: spending).importBills(bills, into: ledger, name: name, currency: currency, rates: rates)
        case .splitwise(let export):
            try await SplitwiseImporter(spending: spending).importExport(export, into: ledger, name: name, currency: currency, rates: rates)
        }
    }
}
