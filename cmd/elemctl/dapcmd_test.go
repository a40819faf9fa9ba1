package main

import (
	"bytes"
	"strings"
	"testing"
)

// `elemctl dap` speaks the language of the editor's initialize request
// (arguments.locale) when the user chose none, and the user's choice
// otherwise.
func TestDAPFollowsTheClientLocale(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, locale string
		env          map[string]string
		args         []string
		want         string
	}{
		{"editor in English", "en-US", nil, nil, "debug adapter was not found"},
		{"editor in Russian", "ru", map[string]string{"LANG": "en_US.UTF-8"}, nil, "адаптер 1С:Элемент не найден"},
		{"another editor language", "de", nil, nil, "debug adapter was not found"},
		{"ELEMCTL_LANG chosen", "en", map[string]string{"ELEMCTL_LANG": "ru"}, nil, "адаптер 1С:Элемент не найден"},
		{"--lang chosen", "ru", nil, []string{"--lang", "en"}, "debug adapter was not found"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			in := frame(`{"seq":1,"type":"request","command":"initialize","arguments":{"adapterID":"xbsl","locale":"`+c.locale+`"}}`) +
				frame(`{"seq":2,"type":"request","command":"disconnect"}`)
			var out, errOut bytes.Buffer
			getenv := func(k string) string { return c.env[k] }
			code := newApp(strings.NewReader(in), &out, &errOut, getenv).run(append(c.args, "dap"))
			msgs := frames(t, out.Bytes())
			if code != 1 || len(msgs) != 2 || msgs[0]["success"] != false {
				t.Fatalf("exit %d, answers %v, stderr %s", code, msgs, errOut.String())
			}
			if text, _ := msgs[0]["message"].(string); !strings.Contains(text, c.want) {
				t.Errorf("initialize refused with %q, want %q", text, c.want)
			}
		})
	}
}
