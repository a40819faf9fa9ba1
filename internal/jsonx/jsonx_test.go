package jsonx

import (
	"strings"
	"testing"
)

func TestRoundTripKeepsOrderAndUnknownFields(t *testing.T) {
	in := `{"zeta":1,"alpha":{"y":[1,{"b":2,"a":3}],"x":null},"name":"Задачи <b>","big":12345678901234567890}`
	v, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Compact(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Fatalf("round trip changed the JSON:\n in %s\nout %s", in, out)
	}
}

func TestMarshalIndentsAndKeepsCyrillic(t *testing.T) {
	o := New("b", "живых", "a", []any{1, 2})
	out, err := Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"b\": \"живых\",\n  \"a\": [\n    1,\n    2\n  ]\n}\n"
	if string(out) != want {
		t.Fatalf("got %q", out)
	}
}

func TestSetDeleteClone(t *testing.T) {
	o := New("a", 1, "b", 2, "c", 3)
	o.Set("b", 20)
	o.Delete("a")
	c := o.Clone()
	c.Set("d", 4)
	if strings.Join(o.Keys(), ",") != "b,c" || strings.Join(c.Keys(), ",") != "b,c,d" {
		t.Fatalf("keys: %v / %v", o.Keys(), c.Keys())
	}
	if n, ok := o.Int("b"); !ok || n != 20 {
		t.Fatalf("b = %v", o.Value("b"))
	}
}

func TestDecodeRejectsTrailingData(t *testing.T) {
	if _, err := Decode([]byte(`{} {}`)); err == nil {
		t.Fatal("trailing data accepted")
	}
}
