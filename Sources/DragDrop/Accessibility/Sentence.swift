/// Puts together the sentences a person reads (status lines, announcements, failure reasons)
/// so that each ends with exactly one full stop, however its parts end.
///
/// A message is often made of parts written elsewhere: a lead ("The text could not be read")
/// and a reason that is itself a sentence (a ``TransferError``'s description, ending with a
/// full stop) or a bare clause (a GIO error, "Operation was cancelled"). Gluing them with
/// `"\(lead): \(reason)."` gives "..", "!." or no stop at all depending on the reason. Compose
/// with these functions instead:
///
/// ```swift
/// Sentence.explaining("The text could not be read", error)
/// // "The text could not be read: The source stopped providing the data: it sent nothing for 15 s."
/// Sentence.finished("Copied 'Quarterly' to Book club: March")
/// // "Copied 'Quarterly' to Book club: March."
/// ```
///
/// Cost: O(length of the parts); allocates the result.
public enum Sentence {
    /// What may close a part and gives way when the part becomes (or goes inside) a sentence
    /// (with the full-width and ideographic stops of Japanese and Chinese sentences).
    static let closing: Set<Character> = [
        ".", "!", "?", "…", ":", ";", ",", " ", "\n", "\t", "。", "．", "！", "？", "：", "；", "、", "，",
    ]

    /// `text` without the punctuation and spaces that close it: the part to go inside a longer
    /// sentence ("the disk is full." in "Could not save: the disk is full.").
    public static func clause(_ text: String) -> String {
        var end = text.endIndex
        while end > text.startIndex, closing.contains(text[text.index(before: end)]) {
            end = text.index(before: end)
        }
        var start = text.startIndex
        while start < end, text[start].isWhitespace { start = text.index(after: start) }
        return String(text[start..<end])
    }

    /// `text` as one finished sentence: whatever closed it (".", "..", "!", "?", "…", ":",
    /// spaces) gives way to exactly one full stop. An empty text stays empty.
    public static func finished(_ text: String) -> String {
        let body = clause(text)
        return body.isEmpty ? "" : body + "."
    }

    /// "Lead: reason." — `reason` (a sentence or a clause) explains `lead`. Without a reason,
    /// the lead alone as a sentence.
    public static func explaining(_ lead: String, _ reason: String) -> String {
        let because = clause(reason)
        return because.isEmpty ? finished(lead) : finished("\(clause(lead)): \(because)")
    }

    /// "Lead: reason." with an error's description as the reason.
    public static func explaining(_ lead: String, _ error: any Error) -> String {
        explaining(lead, String(describing: error))
    }
}
