#!/bin/sh
# Prints, per library module, how many declarations are public or open: lines that have `public`
# or `open` after attributes (@MainActor, @inlinable...) and modifiers (nonisolated...), followed,
# possibly after other modifiers (final, static, private(set), mutating, nonisolated...), by
# func, var, let, init, subscript, class, struct, enum, protocol, typealias, case, static or
# actor. A rough count (one line, one declaration), made the same way every time, to compare the
# surface before and after a change. SPI declarations (@_spi(Benchmarks) public) are not counted:
# only clients that import the SPI see them. Usage: Tools/public-surface.sh [module...]
cd "$(dirname "$0")/.." || exit 1
[ $# -gt 0 ] || set -- DragDrop DragDropTesting DragDropGTK
total=0
for module in "$@"; do
    count=$(find "Sources/$module" -name '*.swift' -exec cat {} + |
        grep -cE '^[[:space:]]*(@[A-Za-z]+(\([^)]*\))?[[:space:]]+)*([a-z]+[[:space:]]+)*(public|open)([[:space:]]+[a-z]+(\([a-z]+\))?)*[[:space:]]+(func|var|let|init|subscript|class|struct|enum|protocol|typealias|case|static|actor)\b|^[[:space:]]*(@[A-Za-z]+(\([^)]*\))?[[:space:]]+)*([a-z]+[[:space:]]+)*(public|open)([[:space:]]+[a-z]+(\([a-z]+\))?)*[[:space:]]+init[(<?!]')
    printf '%-16s %5d\n' "$module" "$count"
    total=$((total + count))
done
printf '%-16s %5d\n' total "$total"
