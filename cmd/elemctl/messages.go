package main

import (
	"github.com/elemctl/elemctl/internal/dap"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/lsp"
	"github.com/elemctl/elemctl/internal/mcp"
	"github.com/elemctl/elemctl/internal/messages"
)

// registerMessages registers every message table of the program: the
// operations', the faces' and the command line's own.
func registerMessages() {
	i18n.Register(messages.Operations()...)
	i18n.Register(mcp.Messages, lsp.Messages, dap.Messages, cliMessages, mcpCLIMessages, dapMessages)
}

var cliMessages = []i18n.Message{
	{Key: "cli.help.root",
		RU: "elemctl – приложения, проекты и сборки 1C:Enterprise.Element через Console API",
		EN: "elemctl – applications, projects and builds of 1C:Enterprise.Element through the Console API",
	},
	{Key: "cli.help.usage", RU: "Использование", EN: "Usage"},
	{Key: "cli.help.flags-placeholder", RU: "[параметры]", EN: "[flags]"},
	{Key: "cli.help.command-placeholder", RU: "[команда]", EN: "[command]"},
	{Key: "cli.help.aliases", RU: "Псевдонимы", EN: "Aliases"},
	{Key: "cli.help.commands", RU: "Команды", EN: "Commands"},
	{Key: "cli.help.options", RU: "параметры", EN: "options"},
	{Key: "cli.help.global-options", RU: "общие параметры", EN: "global options"},
	{Key: "cli.help.more", RU: "Подробнее о команде:", EN: "More about a command:"},
	{Key: "cli.help.help", RU: "справка по любой команде", EN: "help about any command"},
	{Key: "cli.flag.help", RU: "показать справку и выйти", EN: "show this help and exit"},
	{Key: "cli.help.completion", RU: "сценарий автодополнения команд для оболочки", EN: "the command completion script for a shell"},
	{Key: "cli.help.completion-shell", RU: "сценарий автодополнения для {shell}", EN: "the completion script for {shell}"},
	{Key: "cli.flag.base-url", RU: "адрес платформы (ELEMENT_BASE_URL)", EN: "platform address (ELEMENT_BASE_URL)"},
	{Key: "cli.flag.client-id", RU: "Client-Id интеграции Console API (ELEMENT_CLIENT_ID)", EN: "Console API integration Client-Id (ELEMENT_CLIENT_ID)"},
	{Key: "cli.flag.client-secret", RU: "Client-Secret (ELEMENT_CLIENT_SECRET)", EN: "Client-Secret (ELEMENT_CLIENT_SECRET)"},
	{Key: "cli.flag.env-file",
		RU: "файл .env (по умолчанию ./.env); относительный путь – от текущего каталога",
		EN: "the .env file (default ./.env); a relative path is taken from the current directory",
	},
	{Key: "cli.flag.timeout", RU: "тайм-аут запроса, секунды (по умолчанию 60)", EN: "request timeout, seconds (default 60)"},
	{Key: "cli.flag.lang", RU: "язык сообщений: ru или en", EN: "message language: ru or en"},
	{Key: "cli.flag.json", RU: "в stdout – только итоговый JSON", EN: "only the final JSON on stdout"},
	{Key: "cli.flag.quiet", RU: "без строк хода работы на stderr", EN: "no progress lines on stderr"},
	{Key: "cli.flag.version", RU: "показать версию и выйти", EN: "show the version and exit"},
	{Key: "cli.usage-error", RU: "ошибка: {error}", EN: "error: {error}"},
	{Key: "cli.help.positionals", RU: "аргументы", EN: "positional arguments"},
	{Key: "cli.help.default", RU: "по умолчанию", EN: "default"},
	{Key: "cli.help.examples", RU: "Примеры", EN: "Examples"},
	{Key: "cli.interrupted", RU: "прервано", EN: "interrupted"},
	{Key: "cli.stopping", RU: "elemctl останавливается и доделывает уборку", EN: "elemctl is stopping and finishing its cleanup"},
	{Key: "cli.stop-again", RU: " (ещё одно прерывание остановит сразу)", EN: " (one more interrupt stops at once)"},
	{Key: "cli.ambiguous-option", RU: "ключ {option} неоднозначен: подходят {matches}", EN: "ambiguous option: {option} could match {matches}"},
	{Key: "cli.unknown-command",
		RU: "неизвестная команда \"{name}\"",
		EN: "unknown command \"{name}\"",
	},
	{Key: "cli.group-needs-action",
		RU: "для группы \"{group}\" нужно действие: {actions}",
		EN: "the \"{group}\" group needs an action: {actions}",
	},
	{Key: "cli.unknown-action",
		RU: "неизвестное действие \"{name}\" группы \"{group}\" (действия: {actions})",
		EN: "unknown action \"{name}\" of the \"{group}\" group (actions: {actions})",
	},
	{Key: "cli.action-first",
		RU: "подсказка: действие группы \"{group}\" идёт первым, а его флаги после – например, elemctl {group} {first} ... (действия: {actions})",
		EN: "hint: the action of the \"{group}\" group comes first and its flags after it – elemctl {group} {first} ..., say (actions: {actions})",
	},
	{Key: "cli.bad-lang", RU: "недопустимый язык \"{value}\" (допустимы: ru, en)", EN: "invalid language \"{value}\" (choose from ru, en)"},
	{Key: "cli.local-refuses-connection",
		RU: "команда {command} локальная и не ходит на сервер, поэтому не принимает параметры подключения ({flags}) и не занимает номер версии на сервере; чтобы выгрузить сборку, используйте deploy или builds upload",
		EN: "{command} is a local command and does not talk to the server, so it takes no connection options ({flags}) and reserves no server version number; to upload a build use deploy or builds upload",
	},
	{Key: "cli.help.stand",
		RU: "запустить эмулятор стенда 1C:Element на локальном адресе",
		EN: "run the emulated 1C:Element stand on a loopback address",
	},
	{Key: "cli.flag.stand-addr", RU: "адрес прослушивания (по умолчанию прежний адрес из --state, иначе свободный порт)", EN: "listen address (default: the previous one of --state, else a free port)"},
	{Key: "cli.flag.stand-write-env", RU: "записать готовый .env в этот файл", EN: "write a ready .env to this file"},
	{Key: "cli.flag.stand-seed", RU: "начальные данные: demo", EN: "seed data: demo"},
	{Key: "cli.flag.stand-state", RU: "файл состояния: загрузить при старте, сохранять изменения; хранит и секрет клиента, и адрес, так что прежний .env работает после перезапуска", EN: "state file: loaded at start, saved on every change; it keeps the client secret and the address too, so an earlier .env works after a restart"},
	{Key: "cli.stand-address-taken",
		RU: "прежний адрес стенда {address} занят: стенд работает на новом, и .env, записанный раньше, указывает на старый (--write-env запишет новый)",
		EN: "the stand's previous address {address} is taken: it serves on a new one, and a .env written before points at the old one (--write-env writes a new one)",
	},
	{Key: "cli.flag.stand-speed", RU: "множитель длительностей операций (0.1 – в десять раз быстрее)", EN: "factor for operation durations (0.1 = ten times faster)"},
	{Key: "cli.stand-serving",
		RU: "стенд работает на {url}; остановка – Ctrl-C",
		EN: "the stand serves at {url}; stop it with Ctrl-C",
	},
	{Key: "cli.stand-stopped", RU: "стенд остановлен", EN: "the stand stopped"},
}
