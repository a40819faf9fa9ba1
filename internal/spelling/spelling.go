// Package spelling finds what a mistyped word was meant to be: the
// commands, options and values a command line knows that are a slip of the
// keyboard away from it.
package spelling

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/elemctl/elemctl/internal/i18n"
)

// Messages are this package's entries of the message catalog.
var Messages = []i18n.Message{
	{Key: "spelling.did-you-mean", RU: " – может быть, {words}?", EN: " – did you mean {words}?"},
	{Key: "spelling.or", RU: " или ", EN: " or "},
}

// DidYouMean is what a refusal of word adds when known holds a word a slip
// of the keyboard away: " – did you mean X?", in the language of ctx; ""
// when none is close.
func DidYouMean(ctx context.Context, word string, known []string) string {
	near := Nearest(word, known)
	if len(near) == 0 {
		return ""
	}
	return i18n.T(ctx, "spelling.did-you-mean", "words", strings.Join(near, i18n.T(ctx, "spelling.or")))
}

// Nearest are the known words closest to word – a letter missing, added,
// changed or two letters swapped, case aside – in the order known lists
// them; none when nothing is close. The allowance grows with the word: one
// slip in a word of up to four letters, two in a longer one.
func Nearest(word string, known []string) []string {
	if word == "" {
		return nil
	}
	allowed := 1
	if utf8.RuneCountInString(word) > 4 {
		allowed = 2
	}
	best := allowed + 1
	var out []string
	for _, k := range known {
		if k == word {
			continue
		}
		d := distance(strings.ToLower(word), strings.ToLower(k))
		switch {
		case d > allowed:
		case d < best:
			best, out = d, []string{k}
		case d == best && !contains(out, k):
			out = append(out, k)
		}
	}
	return out
}

// distance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of adjacent letters.
func distance(a, b string) int {
	x, y := []rune(a), []rune(b)
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
