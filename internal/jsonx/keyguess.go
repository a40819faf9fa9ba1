package jsonx

// keyGuess speeds up reading a list's cards, which mostly have the same
// keys in the same order: it remembers each key read (its bytes with the
// closing quote) and which keys followed it, the latest two. A key where
// one of those comes again is the same plain string and is taken by
// comparing its bytes, with no scan for its end. Two followers keep both
// shapes of a list whose cards differ by a key (a live application's
// address, which a deleted one lacks) without a miss on every card.
type keyGuess struct {
	slots  []keySlot // slots[0] stands for a card's start, from the first
	byHash [256]int32
	at     int32 // the slot of the key read last
}

// keySlot is a key remembered and the slots of the keys that followed it,
// the latest first (0: none), with the latest's bytes at hand.
type keySlot struct {
	key     []byte
	next    [2]int32
	nextKey []byte // slots[next[0]].key
}

// follow makes s the latest key to have followed this one.
func (k *keySlot) follow(s int32, key []byte) {
	if k.next[0] != s {
		k.next[0], k.next[1] = s, k.next[0]
	}
	k.nextKey = key
}

// guessedKeys is how many different keys are remembered; once they are
// all taken, a key not among them is read the usual way.
const guessedKeys = 256

// startCard tells that a card's first key comes next.
func (g *keyGuess) startCard() {
	if g != nil {
		g.at = 0
	}
}

// plainKeyEnd reads the key at p in d when it is a plain short string (see
// plainShortStringEnd) and gives the offset after its closing quote, or -1
// (nothing read). A key that is one of those that followed the last key
// read is taken by comparing its bytes; one that is not is scanned and
// remembered. Without a keyGuess (nil) a key is only scanned.
func (g *keyGuess) plainKeyEnd(d []byte, p int) int {
	if p >= len(d) || d[p] != '"' {
		return -1
	}
	from := p + 1
	if g == nil {
		return plainShortStringEnd(d, p)
	}
	cur := &g.slots[g.at]
	if k := cur.nextKey; len(k) > 0 && len(d)-from >= len(k) && string(d[from:from+len(k)]) == string(k) {
		g.at = cur.next[0]
		return from + len(k)
	}
	if s := cur.next[1]; s != 0 {
		if k := g.slots[s].key; len(d)-from >= len(k) && string(d[from:from+len(k)]) == string(k) {
			cur.follow(s, k)
			g.at = s
			return from + len(k)
		}
	}
	end := plainShortStringEnd(d, p)
	if end < 0 {
		g.at = 0
		return -1
	}
	key := d[from:end]
	h := keyHash(key)
	s := g.byHash[h]
	if s == 0 || string(g.slots[s].key) != string(key) {
		if len(g.slots) == guessedKeys {
			g.at = 0
			return end
		}
		g.slots = append(g.slots, keySlot{key: append([]byte(nil), key...)})
		s = int32(len(g.slots) - 1)
		g.byHash[h] = s
	}
	g.slots[g.at].follow(s, g.slots[s].key)
	g.at = s
	return end
}

// keyHash places a key (with its closing quote, so never empty) in
// keyGuess.byHash.
func keyHash(key []byte) byte {
	n := len(key)
	return byte(n*31) ^ key[0]*7 ^ key[n/2]*3 ^ key[max(n-2, 0)]
}
