package registry

import "github.com/elemctl/elemctl/internal/i18n"

// Messages are this package's entries of the message catalog, for
// i18n.Register.
var Messages = []i18n.Message{
	{Key: "registry.write-failed",
		RU: "загрузка не записана в локальный реестр ({path}): {error}. Сборка загружена; в локальной истории загрузок не хватает только этой строки (по ней объясняются скачки нумерации и находится коммит сборки)",
		EN: "the upload was not written to the local registry ({path}): {error}. The build is uploaded; only the local history of uploads misses this line (it explains numbering jumps and supplies the build's commit)",
	},
	{Key: "registry.limit-invalid",
		RU: "{name}=\"{value}\": ожидалось целое число строк (0 — хранить все); используется значение по умолчанию {default}",
		EN: "{name}=\"{value}\": a whole number of lines was expected (0 keeps all); the default {default} is used",
	},
}
