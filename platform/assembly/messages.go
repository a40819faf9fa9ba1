package assembly

import "github.com/elemctl/elemctl/internal/i18n"

func init() {
	i18n.Register(map[string]i18n.Message{
		"build.project-not-found": {
			RU: "каталог проекта не найден: нет Проект.yaml/Project.yaml в {dir}",
			EN: "project directory not found: no Проект.yaml/Project.yaml in {dir}",
		},
		"build.descriptor-unreadable": {
			RU: "не удалось прочитать описание проекта {file}: {error}",
			EN: "cannot read the project descriptor {file}: {error}",
		},
		"build.descriptor-no-field": {
			RU: "{file}: в описании проекта не задано {field} – имя проекта и поставщик обязательны",
			EN: "{file}: the project descriptor does not set {field} – the project name and the vendor are required",
		},
		"build.layout": {
			RU: "каталог проекта должен лежать по схеме {{repo}}/{{vendor}}/{{name}}/{file}: ожидалось .../{vendor}/{name}, на деле – {parent}/{dir}",
			EN: "the project directory must follow the {{repo}}/{{vendor}}/{{name}}/{file} layout: expected .../{vendor}/{name}, actual – {parent}/{dir}",
		},
		"build.unknown-kind": {
			RU: "неизвестный вид проекта: {kind} (ожидалось application, library или extension)",
			EN: "unknown project kind: {kind} (expected application, library or extension)",
		},
		"build.require-clean-no-git": {
			RU: "--require-clean: git недоступен или {dir} не лежит в репозитории – чистоту рабочей копии проверить нельзя; закоммитьте проект в git или запустите без --require-clean",
			EN: "--require-clean: git is unavailable or {dir} is not inside a repository – the working tree cannot be checked; commit the project to git or run without --require-clean",
		},
		"build.require-clean-dirty": {
			RU: "--require-clean: в {dir} есть незакоммиченные изменения ({count}) – операция отменена",
			EN: "--require-clean: {dir} has uncommitted changes ({count}) – the operation is cancelled",
		},
		"build.read-dir": {
			RU: "не удалось прочитать каталог проекта {dir}: {error}",
			EN: "cannot read the project directory {dir}: {error}",
		},
		"build.read-file": {
			RU: "не удалось прочитать файл {file}: {error}",
			EN: "cannot read the file {file}: {error}",
		},
		"build.output-dir": {
			RU: "не удалось создать каталог для сборки {dir}: {error}",
			EN: "cannot create the output directory {dir}: {error}",
		},
		"build.write": {
			RU: "не удалось записать архив сборки {file}: {error}",
			EN: "cannot write the build archive {file}: {error}",
		},
		"build.probe-prerequisites": {
			RU: "{file}: сервер не примет эту пробу, поэтому она остановлена до сборки. {problems}",
			EN: "{file}: the server will not take this probe, so it stopped before the build. {problems}",
		},
		"build.probe-no-presentation": {
			RU: "нет {key} (без него загрузка сборки падает с голой ошибкой 500): добавьте строку «{line}»",
			EN: "no {key} (without it the upload fails with a bare 500): add the line \"{line}\"",
		},
		"build.probe-no-development-language": {
			RU: "нет {key} (без него приложение не создаётся): добавьте строку «{line}»",
			EN: "no {key} (without it no application is created): add the line \"{line}\"",
		},
		"build.probe-no-localization-languages": {
			RU: "задан {default}, но {key} нет или список пуст (такой проект сервер отвергает без объяснения причин): добавьте строку «{line}»",
			EN: "{default} is set but {key} is missing or empty (the server refuses such a project without giving a cause): add the line \"{line}\"",
		},
		"build.and-more": {
			RU: " и ещё {count}",
			EN: " and {count} more",
		},
		"build.warn-skipped": {
			RU: "внимание: в архив не вошли файлы неподдерживаемых типов ({count}): {files}",
			EN: "warning: files of types the platform does not take were left out of the archive ({count}): {files}",
		},
		"build.warn-dirty": {
			RU: "внимание: в сборку вошли незакоммиченные изменения ({count}): {files}",
			EN: "warning: the build includes uncommitted changes ({count}): {files}",
		},
		"build.warn-soap": {
			RU: "внимание: у клиентов SOAP-сервисов нет описания сервиса (файла <имя>.wsdl рядом) ({count}): {files} – вызвать сервис они не смогут",
			EN: "warning: SOAP service clients without a service description (no <name>.wsdl beside them) ({count}): {files} – they will not be able to call the service",
		},
		"inspect.not-found": {
			RU: "не найден: {file}",
			EN: "not found: {file}",
		},
		"inspect.unreadable": {
			RU: "не удалось открыть {file}: {error}",
			EN: "cannot open {file}: {error}",
		},
		"inspect.not-archive": {
			RU: "файл не является архивом сборки: {file}",
			EN: "the file is not a build archive: {file}",
		},
		"inspect.no-manifest": {
			RU: "в архиве {file} нет манифеста Assembly.yaml",
			EN: "archive {file} has no manifest Assembly.yaml",
		},
		"inspect.no-project-file": {
			RU: "в архиве {file} нет файла проекта {vendor}/{name}/Проект.yaml или Project.yaml",
			EN: "archive {file} has no project file {vendor}/{name}/Проект.yaml or Project.yaml",
		},
		"inspect.no-entry": {
			RU: "в архиве {file} нет файла {entry}",
			EN: "archive {file} has no entry {entry}",
		},
		"inspect.bad-entry": {
			RU: "архив {file} повреждён: файл {entry} не читается: {error}",
			EN: "archive {file} is damaged: the entry {entry} cannot be read: {error}",
		},
		"inspect.size-mismatch": {
			RU: "архив {file} повреждён: файл {entry} больше заявленных {size} байт",
			EN: "archive {file} is damaged: the entry {entry} holds more than the {size} bytes it declares",
		},
		"inspect.entry-too-large": {
			RU: "архив {file}: файл {entry} слишком велик для чтения ({size} байт при пределе {limit}) – архив повреждён или это zip-бомба",
			EN: "archive {file}: the entry {entry} is too large to read ({size} bytes, the limit is {limit}) – a damaged archive or a zip bomb",
		},
		"inspect.too-much-data": {
			RU: "архив {file}: чтение требует распаковать больше {limit} байт – отказано (архив повреждён или это zip-бомба)",
			EN: "archive {file}: reading it would unpack more than {limit} bytes – refused (a damaged archive or a zip bomb)",
		},
		"inspect.too-many-entries": {
			RU: "архив {file}: слишком много файлов ({count}, предел {limit}) – архив повреждён или это zip-бомба",
			EN: "archive {file}: too many entries ({count}, the limit is {limit}) – a damaged archive or a zip bomb",
		},
	})
}
