package stand

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The hand-written card must be byte for byte what encoding/json writes.
func TestAppCardJSONMatchesEncodingJSON(t *testing.T) {
	cards := []appJSON{
		{ID: "a", Name: "n", Status: "Running", UserLists: []string{"l1", "l2"}, DevelopmentMode: true,
			Source:  sourceJSON{Type: "image", ImageID: "p", ProjectVersionID: "b", ProjectVersion: "1.0-1"},
			Project: refJSON{ID: "p", Name: "Задачи"}, URI: "http://h/x?a=1&b=<2>"},
		{ID: "b", DisplayName: "quote \" back \\ nl \n tab \t ctl \x01 ls \u2028 bad \xff", Error: "Неизвестная ошибка", UserLists: []string{}},
		{},
	}
	for _, c := range cards {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(c); err != nil {
			t.Fatal(err)
		}
		want := bytes.TrimRight(buf.Bytes(), "\n")
		if got := c.appendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("card %q:\n got %s\nwant %s", c.ID, got, want)
		}
	}
}
