// Package schemaguard compares a project's metadata YAML files with the
// files of an earlier commit and tells what an apply would do to the data
// (spec cli.md §3.4): the changes that destroy data (a shorter length, a
// changed type, a removed dimension, a data-holding element removed or
// replaced) and the removals the platform applies without asking (a
// removed attribute, resource or tabular part).
//
// Compare is a pure function of two sets of files; ReadCommit and ReadDir
// collect those sets from git (one git ls-tree and one git cat-file
// --batch per call) and from the working tree.
//
// Where the reference is silent, the guard decides so:
//   - Fields are compared in every element kind; only the removal of a
//     whole element is limited to the kinds that hold data.
//   - A block the new file leaves out, or leaves empty, is empty (its
//     items are removed) like an explicit []; a block in a form the guard
//     cannot read (an inline [a, b], a mapping, a scalar) is ignored on
//     either side. A file YAML cannot parse is left out, but its Ид (read
//     flat, as the build reads descriptors) still counts for moves.
//   - A length counts only when both versions set it: Длина/Length and
//     МаксимальнаяДлина/MaxLength are compared pair by pair, else the
//     first length of either pair.
//   - Composite types (A|B) compare without regard to order; a trailing ?
//     counts. Structured types compare as data (their comments, key order,
//     quoting and anchors are no change), only between files of one
//     spelling. A reference (Товары.Ссылка, Товары.Ref) names its element
//     by the element's Ид, so renaming or translating the element changes
//     no type that refers to it.
//   - Ид are compared without regard to letter case (they are UUIDs), and
//     YAML merge keys (<<) are read.
//   - A field that lost its Ид is still found by its name (not across a
//     translation); a file that lost its Ид line is still the same element.
package schemaguard
