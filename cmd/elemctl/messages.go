package main

import "github.com/elemctl/elemctl/internal/i18n"

func init() {
	i18n.Register(map[string]i18n.Message{
		"cli.help.root": {
			RU: "elemctl – приложения, проекты и сборки 1C:Enterprise.Element через Console API",
			EN: "elemctl – applications, projects and builds of 1C:Enterprise.Element through the Console API",
		},
		"cli.help.usage":          {RU: "Использование", EN: "Usage"},
		"cli.help.aliases":        {RU: "Псевдонимы", EN: "Aliases"},
		"cli.help.commands":       {RU: "Команды", EN: "Commands"},
		"cli.help.options":        {RU: "параметры", EN: "options"},
		"cli.help.global-options": {RU: "общие параметры", EN: "global options"},
		"cli.help.more":           {RU: "Подробнее о команде:", EN: "More about a command:"},
		"cli.help.help":           {RU: "справка по любой команде", EN: "help about any command"},
		"cli.flag.help":           {RU: "показать справку и выйти", EN: "show this help and exit"},
		"cli.flag.base-url":       {RU: "адрес платформы (ELEMENT_BASE_URL)", EN: "platform address (ELEMENT_BASE_URL)"},
		"cli.flag.client-id":      {RU: "Client-Id интеграции Console API (ELEMENT_CLIENT_ID)", EN: "Console API integration Client-Id (ELEMENT_CLIENT_ID)"},
		"cli.flag.client-secret":  {RU: "Client-Secret (ELEMENT_CLIENT_SECRET)", EN: "Client-Secret (ELEMENT_CLIENT_SECRET)"},
		"cli.flag.env-file": {
			RU: "файл .env (по умолчанию ./.env); относительный путь – от текущего каталога",
			EN: "the .env file (default ./.env); a relative path is taken from the current directory",
		},
		"cli.flag.timeout": {RU: "тайм-аут запроса, секунды (по умолчанию 60)", EN: "request timeout, seconds (default 60)"},
		"cli.flag.lang":    {RU: "язык сообщений: ru или en", EN: "message language: ru or en"},
		"cli.flag.json":    {RU: "в stdout – только итоговый JSON", EN: "only the final JSON on stdout"},
		"cli.flag.quiet":   {RU: "без строк хода работы на stderr", EN: "no progress lines on stderr"},
		"cli.flag.version": {RU: "показать версию и выйти", EN: "show the version and exit"},
		"cli.usage-error":  {RU: "ошибка: {error}", EN: "error: {error}"},
		"cli.unknown-command": {
			RU: "неизвестная команда \"{name}\"",
			EN: "unknown command \"{name}\"",
		},
		"cli.group-needs-action": {
			RU: "для группы \"{group}\" нужно действие: {actions}",
			EN: "the \"{group}\" group needs an action: {actions}",
		},
		"cli.unknown-action": {
			RU: "неизвестное действие \"{name}\" группы \"{group}\" (действия: {actions})",
			EN: "unknown action \"{name}\" of the \"{group}\" group (actions: {actions})",
		},
		"cli.action-first": {
			RU: "подсказка: действие группы \"{group}\" идёт первым, а его флаги после – например, elemctl {group} {first} ... (действия: {actions})",
			EN: "hint: the action of the \"{group}\" group comes first and its flags after it – elemctl {group} {first} ..., say (actions: {actions})",
		},
		"cli.too-many-args":      {RU: "лишние аргументы: {args}", EN: "unexpected arguments: {args}"},
		"cli.missing-positional": {RU: "не задан аргумент {name}", EN: "the argument {name} is required"},
		"cli.missing-flag":       {RU: "не задан обязательный параметр {name}", EN: "the required option {name} is missing"},
		"cli.bad-choice": {
			RU: "недопустимое значение {name}: \"{value}\" (допустимы: {choices})",
			EN: "invalid value for {name}: \"{value}\" (choose from {choices})",
		},
		"cli.bad-lang": {RU: "недопустимый язык \"{value}\" (допустимы: ru, en)", EN: "invalid language \"{value}\" (choose from ru, en)"},
		"cli.local-refuses-connection": {
			RU: "команда {command} локальная и не ходит на сервер, поэтому не принимает параметры подключения ({flags}) и не занимает номер версии на сервере; чтобы выгрузить сборку, используйте deploy или builds upload",
			EN: "{command} is a local command and does not talk to the server, so it takes no connection options ({flags}) and reserves no server version number; to upload a build use deploy or builds upload",
		},
		"cli.help.stand": {
			RU: "запустить эмулятор стенда 1C:Element на локальном адресе",
			EN: "run the emulated 1C:Element stand on a loopback address",
		},
		"cli.flag.stand-addr":      {RU: "адрес прослушивания (по умолчанию свободный порт)", EN: "listen address (default: a free port)"},
		"cli.flag.stand-write-env": {RU: "записать готовый .env в этот файл", EN: "write a ready .env to this file"},
		"cli.flag.stand-seed":      {RU: "начальные данные: demo", EN: "seed data: demo"},
		"cli.flag.stand-state":     {RU: "файл состояния: загрузить при старте, сохранять изменения", EN: "state file: loaded at start, saved on every change"},
		"cli.flag.stand-speed":     {RU: "множитель длительностей операций (0.1 – в десять раз быстрее)", EN: "factor for operation durations (0.1 = ten times faster)"},
		"cli.stand-serving": {
			RU: "стенд работает на {url}; остановка – Ctrl-C",
			EN: "the stand serves at {url}; stop it with Ctrl-C",
		},
		"cli.stand-stopped": {RU: "стенд остановлен", EN: "the stand stopped"},
	})
}
