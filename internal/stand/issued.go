package stand

// IssuedTokens lists every token the stand has issued, so tests can assert
// that none of them ever appears in elemctl's output.
func (s *Stand) IssuedTokens() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.tokens))
	for tok := range s.tokens {
		out = append(out, tok)
	}
	return out
}
