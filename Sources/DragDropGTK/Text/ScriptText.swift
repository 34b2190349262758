/// Text in every script stays whole through drags and drops (L4): drop points, dragged ranges
/// and the seams of inserted text fall on grapheme-cluster boundaries (what a reader sees as one
/// character, Swift's `Character`: a Hangul syllable, written precomposed or as conjoining jamo,
/// a letter with its combining marks, a flag, an emoji with its skin tone or its ZWJ family, a
/// Devanagari conjunct such as क्षि). Offsets count Unicode scalars, as GTK's do.
enum ScriptText {
    /// Put between dropped text and the text around its drop point where they would otherwise
    /// fuse into one character (a dropped combining accent after a letter, a lone regional
    /// indicator beside a flag, conjoining jamo beside a syllable): WORD JOINER, invisible,
    /// no line break and no word break (UAX 29 ignores it inside words), so each side keeps its
    /// own characters as they were shown.
    static let separator: Unicode.Scalar = "\u{2060}"

    /// The cluster boundaries of `text`, as scalar offsets from 0 to its scalar count.
    static func boundaries(of text: String) -> [Int] {
        var result = [0]
        var offset = 0
        for character in text {
            offset += character.unicodeScalars.count
            result.append(offset)
        }
        return result
    }

    /// The cluster boundary nearest to scalar `offset` in `text` (the offset itself when it is
    /// one; inside a cluster the nearer edge, its start on a tie).
    static func nearestBoundary(to offset: Int, in text: String) -> Int {
        let edges = boundaries(of: text)
        guard let after = edges.firstIndex(where: { $0 >= offset }) else { return edges.last ?? 0 }
        if edges[after] == offset || after == 0 { return edges[after] }
        let before = edges[after - 1]
        return offset - before <= edges[after] - offset ? before : edges[after]
    }

    /// `range` widened to whole clusters of `text`: its start moved back to the start of its
    /// cluster, its end forward to the end of its cluster.
    static func wholeClusters(_ range: Range<Int>, in text: String) -> Range<Int> {
        let edges = boundaries(of: text)
        let start = edges.last(where: { $0 <= range.lowerBound }) ?? 0
        let end = edges.first(where: { $0 >= range.upperBound }) ?? (edges.last ?? 0)
        return start..<max(start, end)
    }

    /// Whether `inserted`, put between the characters `before` and `after` (nil at the text's
    /// ends), would fuse with either into one character: then a ``separator`` goes between
    /// them on that side.
    static func seams(before: Character?, inserted: String, after: Character?) -> (leading: Bool, trailing: Bool) {
        guard let first = inserted.first, let last = inserted.last else { return (false, false) }
        let leading =
            before.map { String($0).count + String(first).count > (String($0) + String(first)).count } ?? false
        let trailing = after.map { String(last).count + String($0).count > (String(last) + String($0)).count } ?? false
        return (leading, trailing)
    }
}

extension StyledBuffer {
    /// How far around an offset the view looks for cluster boundaries: far more than any
    /// cluster a reader meets, and cheap in a text of any length.
    static let clusterWindow = 64

    /// The text around `offset` (at most ``clusterWindow`` scalars on each side) and where it
    /// starts.
    private func neighbourhood(of offset: Int) -> (text: String, start: Int) {
        let start = max(0, offset - Self.clusterWindow)
        return (text(from: start, to: min(count, offset + Self.clusterWindow)), start)
    }

    /// The cluster boundary nearest to `offset` (L4: a drop never lands inside a character).
    func nearestClusterBoundary(to offset: Int) -> Int {
        let around = neighbourhood(of: offset)
        return around.start + ScriptText.nearestBoundary(to: offset - around.start, in: around.text)
    }

    /// `start..<end` widened to whole clusters (L4: a drag takes whole characters).
    func wholeClusters(from start: Int, to end: Int) -> (start: Int, end: Int) {
        let a = neighbourhood(of: start)
        let b = neighbourhood(of: end)
        let from = a.start + ScriptText.wholeClusters((start - a.start)..<(start - a.start), in: a.text).lowerBound
        let to = b.start + ScriptText.wholeClusters((end - b.start)..<(end - b.start), in: b.text).upperBound
        return (from, max(from, to))
    }

    /// The character (cluster) just before `offset` and the one starting at it, nil at the
    /// text's ends.
    func characters(around offset: Int) -> (before: Character?, after: Character?) {
        let before = text(from: max(0, offset - Self.clusterWindow), to: offset).last
        let after = text(from: offset, to: min(count, offset + Self.clusterWindow)).first
        return (before, after)
    }
}
