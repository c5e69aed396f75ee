import Foundation
import TallyCore
import TallyStore

/// The spending screen before a ledger is chosen: your ledgers, a new one, or one to join (S1).
struct SpendingStartPage {
    var ledgers: [LedgerDetails]
    /// An invite code from a link (/join/CODE), filled in for the person to confirm.
    var code: String?

    func render(_ context: PageContext, error: String? = nil) -> HTML {
        Layout.page("Spending", context, error: error, """
        <h1>Spending</h1>
        \(list)
        <section aria-labelledby="join-title">
        <h2 id="join-title">Join a ledger</h2>
        <form method="post" action="/spending/join" class="stack">
        \(Layout.csrfField(context))
        <label for="code">Invite code or link</label>
        <input id="code" name="code" required autocomplete="off" autocapitalize="characters" value="\(code ?? "")" placeholder="ABCD-EFGH-JKMN">
        <button type="submit"\(HTML.flag(" class=\"primary\"", code != nil))>Join</button>
        </form>
        </section>
        <section aria-labelledby="create-title">
        <h2 id="create-title">New ledger</h2>
        <form method="post" action="/spending" class="stack">
        \(Layout.csrfField(context))
        <label for="name">Name</label>
        <input id="name" name="name" required maxlength="100" placeholder="Home">
        <label for="currency">Currency</label>
        <input id="currency" name="currency" required value="EUR" maxlength="3" autocapitalize="characters" aria-describedby="currency-help">
        <p class="help" id="currency-help">An ISO 4217 code such as EUR, USD, GBP or JPY.</p>
        <p class="help">It starts with two members, Person 1 (you) and Person 2; rename them in its settings.</p>
        <button type="submit"\(HTML.flag(" class=\"primary\"", code == nil))>Create ledger</button>
        </form>
        </section>
        """)
    }

    private var list: HTML {
        guard !ledgers.isEmpty else {
            return #"<p class="empty">No ledgers yet. Create one to split costs with someone, or join theirs with the code they send you.</p>"#
        }
        let items = ledgers.map { details -> HTML in
            let names = details.members.map(\.name).joined(separator: ", ")
            return "<li><a href=\"/spending/\(details.ledger.id)\">\(details.ledger.name)</a> <span class=\"help\">\(details.ledger.currency.code) · \(names)</span></li>"
        }
        return """
        <section aria-labelledby="ledgers-title">
        <h2 id="ledgers-title">Your ledgers</h2>
        <ul class="ledgers">\(items)</ul>
        </section>
        """
    }
}
