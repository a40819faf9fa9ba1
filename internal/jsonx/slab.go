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
	free  []T // what is left of the newest allocation
	whole []T // the newest allocation
	next  int // size of the next allocation
	gen   int // allocations so far

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
		s.whole = make([]T, max(n, min(s.next, n+rest/s.leastBytes+1)))
		s.free = s.whole
		s.gen++
	}
	out := s.free[:n:n]
	s.free = s.free[n:]
	return out
}

// slabMark is where a slab stood.
type slabMark[T any] struct {
	free []T
	gen  int
}

func (s *slab[T]) mark() slabMark[T] { return slabMark[T]{s.free, s.gen} }

// rewind gives back what was handed out since m. When a new allocation came
// in the meantime, all of it was handed out since: it is given back whole,
// and the rest of the old one stays unused – going back to an old one too
// short for the next element would have every dropped element allocate.
func (s *slab[T]) rewind(m slabMark[T]) {
	if m.gen == s.gen {
		s.free = m.free
	} else {
		s.free = s.whole
	}
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

// slabsMark is where all slabs stood.
type slabsMark struct {
	keys    slabMark[string]
	vals    slabMark[any]
	objects slabMark[Object]
	items   slabMark[any]
}

func (s *slabs) mark() slabsMark {
	return slabsMark{s.keys.mark(), s.vals.mark(), s.objects.mark(), s.items.mark()}
}

// rewind gives back everything handed out since m: nothing refers to it
// any more, and what is read next goes into its memory.
func (s *slabs) rewind(m slabsMark) {
	s.keys.rewind(m.keys)
	s.vals.rewind(m.vals)
	s.objects.rewind(m.objects)
	s.items.rewind(m.items)
}

// cutMembers takes the key and value slices of an object of n members.
func (s *scanner) cutMembers(n int) ([]string, []any) {
	return s.keys.take(n, s.Rest()), s.vals.take(n, s.Rest())
}

// newObject takes an empty object.
func (s *scanner) newObject() *Object {
	o := &s.objects.take(1, s.Rest())[0]
	*o = Object{} // it may have held a dropped element's object
	return o
}
