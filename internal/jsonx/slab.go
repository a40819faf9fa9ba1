package jsonx

// A listing of thousands of cards would cost several small allocations per
// card: an object, the slices of its keys and values, the header of every
// string and number put into an interface. The scanner cuts all of these
// from slabs – a few large allocations – instead.
//
// Slabs start small and double up to a ceiling, so a listing soon cuts
// from large slabs while a small document (a plugin manifest, one card)
// allocates about what it holds; a slab is also never larger than the rest
// of the input can fill. Pieces handed out are full slices (len == cap):
// appending to one later reallocates instead of overwriting a neighbour.

// slab hands out pieces of its newest allocation.
type slab[T any] struct {
	free []T // what is left of the newest allocation
	next int // size of the next allocation

	first, ceiling int // sizes of the first and the largest allocation
	leastBytes     int // input bytes one element takes at least
}

func newSlab[T any](first, ceiling, leastBytes int) slab[T] {
	return slab[T]{first: first, ceiling: ceiling, leastBytes: leastBytes}
}

// take hands out n elements; rest is how much input is left to read.
func (s *slab[T]) take(n, rest int) []T {
	if len(s.free) < n {
		s.next = min(s.ceiling, max(s.first, 2*s.next))
		s.free = make([]T, max(n, min(s.next, n+rest/s.leastBytes+1)))
	}
	out := s.free[:n:n]
	s.free = s.free[n:]
	return out
}

// slabs are the scanner's slabs, one per kind of piece.
type slabs struct {
	keys    slab[string] // objects' keys
	vals    slab[any]    // objects' values, in step with keys
	objects slab[Object]
	items   slab[any] // arrays' elements
}

// minMemberBytes is the least a member takes in JSON text (`"":0,`).
const minMemberBytes = 5

func newSlabs() slabs {
	return slabs{
		keys:    newSlab[string](32, 4096, minMemberBytes),
		vals:    newSlab[any](32, 4096, minMemberBytes),
		objects: newSlab[Object](8, 512, 2), // {}
		items:   newSlab[any](32, 4096, 2),  // 0,
	}
}

// cutMembers takes the key and value slices of an object of n members.
func (s *scanner) cutMembers(n int) ([]string, []any) {
	return s.keys.take(n, s.Rest()), s.vals.take(n, s.Rest())
}

// newObject takes an empty object.
func (s *scanner) newObject() *Object {
	return &s.objects.take(1, s.Rest())[0]
}
