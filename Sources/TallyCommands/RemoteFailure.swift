import TallyCore

/// A failure that is no rule of Tally's: the server cannot be reached, fails, or does not speak
/// its API. The CLI prints the sentence, in the terminal's language, and exits with 6.
package struct RemoteFailure: Error, CustomStringConvertible {
    package let phrase: Phrase
    package init(_ phrase: Phrase) { self.phrase = phrase }
    /// The sentence in English.
    package var message: String { phrase.description }
    package var description: String { message }
}
