package assembly

import (
	"context"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
)

// ProbePrerequisites checks what the server needs before it will take a
// probe build: a presentation (else the upload fails with a bare 500), a
// development language (else no application is created), and localization
// languages whenever a default language is set (else the creation is
// refused without a cause). Each problem names the line to add, spelled the
// way the descriptor itself is written.
func ProbePrerequisites(ctx context.Context, d *Descriptor) error {
	key := func(ru, en string) string {
		if d.English {
			return en
		}
		return ru
	}
	language := key("Русский", "English")
	var problems []string
	if d.Presentation == "" {
		k := key("Представление", "Presentation")
		problems = append(problems, i18n.T(ctx, "build.probe-no-presentation", "key", k, "line", k+": "+d.Name))
	}
	if d.DevelopmentLanguage == "" {
		k := key("ЯзыкРазработки", "DevelopmentLanguage")
		problems = append(problems, i18n.T(ctx, "build.probe-no-development-language", "key", k, "line", k+": "+language))
	}
	if d.DefaultLanguage != "" && !d.HasLocalizationLanguages {
		k := key("ЯзыкиЛокализации", "LocalizationLanguages")
		problems = append(problems, i18n.T(ctx, "build.probe-no-localization-languages",
			"key", k, "default", key("ЯзыкПоУмолчанию", "DefaultLanguage"),
			"line", k+": ["+d.DefaultLanguage+"]"))
	}
	if len(problems) == 0 {
		return nil
	}
	e := newError(ctx, "build.probe-prerequisites", "file", d.Path, "problems", strings.Join(problems, "; "))
	e.Problems = problems
	return e
}
