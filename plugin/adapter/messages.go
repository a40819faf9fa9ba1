package adapter

import "github.com/elemctl/elemctl/internal/i18n"

func init() {
	i18n.Register(map[string]i18n.Message{
		"plugins.adapter-index-broken": {
			RU: "индекс отладочного адаптера {file} не читается: {error}",
			EN: "the debug adapter index {file} cannot be read: {error}",
		},
		"plugins.adapter-command-failed": {
			RU: "программа {command}, которая называет каталог отладочного адаптера, не сработала: {error}",
			EN: "the program {command} that names the debug adapter directory failed: {error}",
		},
		"plugins.adapter-command-timeout": {
			RU: "программа {command}, которая называет каталог отладочного адаптера, не ответила за {seconds} с",
			EN: "the program {command} that names the debug adapter directory did not answer within {seconds} s",
		},
		"plugins.adapter-command-empty": {
			RU: "она ничего не напечатала",
			EN: "it printed nothing",
		},
		"plugins.extract-no-distro": {
			RU: "дистрибутив {path} не найден: {error}",
			EN: "the distribution {path} is not found: {error}",
		},
		"plugins.extract-no-car": {
			RU: "в каталоге {dir} нет файла .car",
			EN: "no .car found in {dir}",
		},
		"plugins.extract-no-version": {
			RU: "в имени {file} нет версии вида 9.2.8+11",
			EN: "the name {file} holds no version such as 9.2.8+11",
		},
		"plugins.extract-exists": {
			RU: "{dir} уже есть; чтобы извлечь адаптер заново, удалите этот каталог",
			EN: "{dir} already exists; delete it to extract the adapter again",
		},
		"plugins.extract-not-zip": {
			RU: "{file} не читается как архив ZIP: {error}",
			EN: "{file} cannot be read as a ZIP archive: {error}",
		},
		"plugins.extract-unsafe": {
			RU: "в архиве есть запись {name}, которая вышла бы за пределы каталога адаптера; ничего не извлечено",
			EN: "the archive holds the entry {name}, which would land outside the adapter directory; nothing was extracted",
		},
		"plugins.extract-no-debugger": {
			RU: "в {file} нет отладчика (файлов под {prefix})",
			EN: "{file} holds no debugger (no files under {prefix})",
		},
		"plugins.extract-write": {
			RU: "не удалось записать {path}: {error}",
			EN: "cannot write {path}: {error}",
		},
		"plugins.extract-done": {
			RU: "извлечено файлов: {count}, в {dir}; adapterPath = {dir}",
			EN: "extracted {count} files into {dir}; adapterPath = {dir}",
		},
		"plugins.extract-index": {
			RU: "индекс {file}: по умолчанию {version}, доступны: {available}",
			EN: "index {file}: default {version}, available: {available}",
		},
	})
}
