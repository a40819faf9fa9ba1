package assembly

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
)

func TestProbePrerequisites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		name  string
		text  string
		lines []string // the lines each problem asks to add
	}{
		{"complete russian", "Имя: A\nПоставщик: B\nПредставление: А\nЯзыкРазработки: Русский\nЯзыкПоУмолчанию: Русский\nЯзыкиЛокализации:\n    - Русский\n", nil},
		{"complete english", "Name: A\nVendor: B\nPresentation: A\nDevelopmentLanguage: English\nDefaultLanguage: English\nLocalizationLanguages: [English]\n", nil},
		{"no default language needs no localization", "Имя: A\nПоставщик: B\nПредставление: А\nЯзыкРазработки: Русский\n", nil},
		{"everything missing, russian", "Имя: Задачи\nПоставщик: B\nЯзыкПоУмолчанию: Русский\nЯзыкиЛокализации: []\n",
			[]string{"Представление: Задачи", "ЯзыкРазработки: Русский", "ЯзыкиЛокализации: [Русский]"}},
		{"everything missing, english", "Name: Tasks\nVendor: B\nDefaultLanguage: English\n",
			[]string{"Presentation: Tasks", "DevelopmentLanguage: English", "LocalizationLanguages: [English]"}},
		{"english keys but Имя present is russian spelling", "Name: T\nИмя: T\nVendor: B\nПредставление: x\n",
			[]string{"ЯзыкРазработки: Русский"}},
		{"empty localization block value", "Name: T\nVendor: B\nPresentation: x\nDevelopmentLanguage: English\nDefaultLanguage: Русский\nLocalizationLanguages:\n",
			[]string{"LocalizationLanguages: [Русский]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := ParseDescriptor([]byte(c.text), "/p/Acme/A/Проект.yaml")
			err := ProbePrerequisites(ctx, d)
			if c.lines == nil {
				if err != nil {
					t.Fatalf("unexpected %v", err)
				}
				return
			}
			var e *Error
			if errKey(err) != "build.probe-prerequisites" || !errors.As(err, &e) || len(e.Problems) != len(c.lines) {
				t.Fatalf("got %v", err)
			}
			for i, line := range c.lines {
				if !strings.Contains(e.Problems[i], "«"+line+"»") {
					t.Errorf("problem %q should ask for %q", e.Problems[i], line)
				}
			}
			if !strings.HasPrefix(err.Error(), "/p/Acme/A/Проект.yaml: сервер не примет эту пробу") {
				t.Errorf("ru: %q", err)
			}
			inLang(t, i18n.EN, func(ctx context.Context) {
				err := ProbePrerequisites(ctx, d)
				prefix := "/p/Acme/A/Проект.yaml: the server will not take this probe, so it stopped before the build. "
				if !strings.HasPrefix(err.Error(), prefix) {
					t.Fatalf("en: %q", err)
				}
				problems := strings.Split(strings.TrimPrefix(err.Error(), prefix), "; ")
				for i, line := range c.lines {
					if !strings.HasSuffix(problems[i], `add the line "`+line+`"`) {
						t.Errorf("en problem %q should ask for %q", problems[i], line)
					}
				}
			})
		})
	}
}
