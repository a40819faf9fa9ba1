package registry

import (
	"reflect"
	"testing"
)

// The reflection-free reader and the general one must read every line
// alike; the fuzz seeds run as an ordinary test.
func FuzzScanAgreesWithTheGeneralReader(f *testing.F) {
	for _, seed := range []string{
		`{}`,
		` { } `,
		`{"assembly-id":"a1","project-id":"p","version":"1.0-1","branch":"main","commit":"c","dirty":true,"project-dir":"/x","file":null,"stand":"s","command":"deploy","uploaded-at":"t","elemctl":"0.1","app-id":null,"route":"project"}`,
		`{"project-dir":"C:\\Users\\u\\Проекты","file":"a\"b","branch":"\u0444"}`,
		`{"dirty":false,"dirty":"yes"}`,
		`{"dirty":"yes","dirty":true}`,
		`{"version":"1","version":null}`,
		`{"Assembly-ID":"case matters"}`,
		`{"assembly\u002did":"escaped key"}`,
		`{"unknown":true,"other":null,"x":"y"}`,
		`{"version":5}`,
		`{"nested":{"a":1}}`,
		"{\"bad\xff\":\"utf8\"}",
		"{\"tab\":\"a\tb\"}",
		`{"a":"b",}`,
		`{"a" "b"}`,
		`{"a":"b"} x`,
		`{"a":tru}`,
		`{"a":"\q"}`,
		`{"a":"\`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		fast, ok := scanLine([]byte(line), line)
		if !ok {
			return
		}
		general, ok := parseLoose([]byte(line))
		if !ok {
			t.Fatalf("scanLine read %q, the general reader refused it", line)
		}
		if !reflect.DeepEqual(fast, general) {
			t.Fatalf("%q:\nscan    %+v\ngeneral %+v", line, fast, general)
		}
	})
}
