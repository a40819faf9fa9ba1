package plugin

import (
	"context"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/plugin/manifest"
)

// FailureLine is the stderr line a face prints for a failure: the CLI says
// the plugin's commands are unavailable, MCP its tools.
func FailureLine(ctx context.Context, f manifest.Failure, surface command.Surface) string {
	key := "plugins.failed-cli"
	if surface == command.MCP {
		key = "plugins.failed-mcp"
	}
	return i18n.T(ctx, key, "source", f.Source, "error", f.Error)
}

// Messages are this package's entries of the message catalog, for
// i18n.Register.
var Messages = []i18n.Message{
	{Key: "plugins.failed-cli",
		RU: "плагин '{source}' не загрузился, его команд нет: {error}",
		EN: "plugin '{source}' did not load, its commands are unavailable: {error}",
	},
	{Key: "plugins.failed-mcp",
		RU: "плагин '{source}' не загрузился, его инструментов нет: {error}",
		EN: "plugin '{source}' did not load, its tools are unavailable: {error}",
	},
	{Key: "plugins.unknown-command",
		RU: "команды '{name}' нет, а часть плагинов не загрузилась: {sources}. Возможно, команда из них; подробности – в plugin-failures и в выводе elemctl plugins",
		EN: "there is no command '{name}', and some plugins did not load: {sources}. The command may come from one of them; see plugin-failures and elemctl plugins",
	},
	{Key: "plugins.help-multiple-positional",
		RU: "(можно назвать несколько значений через пробел)",
		EN: "(several values may be given, separated by spaces)",
	},
	{Key: "plugins.bad-value",
		RU: "аргумент {name}: недопустимое значение типа {type}: {value}",
		EN: "argument {name}: invalid {type} value: {value}",
	},
	{Key: "plugins.interpreter-missing",
		RU: "плагин '{source}': не найден ни один интерпретатор из {names} (ищется в PATH)",
		EN: "plugin '{source}': none of the interpreters {names} is found on PATH",
	},
	{Key: "plugins.start-failed",
		RU: "плагин '{source}': не удалось запустить {program}: {error}",
		EN: "plugin '{source}': cannot start {program}: {error}",
	},
	{Key: "plugins.startup-timeout",
		RU: "плагин '{source}' не ответил на приветствие за {seconds} с; процесс остановлен",
		EN: "plugin '{source}' did not answer the handshake within {seconds} s; the process is stopped",
	},
	{Key: "plugins.run-timeout",
		RU: "плагин '{source}': команда '{command}' не закончилась за {seconds} с; процесс остановлен",
		EN: "plugin '{source}': the command '{command}' did not finish within {seconds} s; the process is stopped",
	},
	{Key: "plugins.garbage",
		RU: "плагин '{source}' вывел в stdout не сообщение протокола: {text} ({error}); процесс остановлен",
		EN: "plugin '{source}' wrote something that is not a protocol message to stdout: {text} ({error}); the process is stopped",
	},
	{Key: "plugins.refused",
		RU: "плагин '{source}' отказался работать: {error}",
		EN: "plugin '{source}' refused to start: {error}",
	},
	{Key: "plugins.protocol-newer",
		RU: "плагин '{source}' говорит на протоколе версии {version}, а этот elemctl – только на 1; обновите elemctl",
		EN: "plugin '{source}' speaks protocol version {version}, and this elemctl only 1; update elemctl",
	},
	{Key: "plugins.protocol-error",
		RU: "плагин '{source}' нарушил протокол: {error}; процесс остановлен",
		EN: "plugin '{source}' broke the protocol: {error}; the process is stopped",
	},
	{Key: "plugins.closed-stdout",
		RU: "плагин '{source}' закрыл stdout, не ответив; процесс остановлен",
		EN: "plugin '{source}' closed its stdout without answering; the process is stopped",
	},
	{Key: "plugins.exited-early",
		RU: "плагин '{source}' завершился, не ответив ({status})",
		EN: "plugin '{source}' exited before answering ({status})",
	},
	{Key: "plugins.failed-no-message",
		RU: "команда плагина не удалась (код {code})",
		EN: "the plugin command failed (code {code})",
	},
	{Key: "plugins.host-call-unknown",
		RU: "у elemctl нет операции '{method}': назовите инструмент MCP ядра (get_app, list_apps, …) или console",
		EN: "elemctl has no operation '{method}': name a core MCP tool (get_app, list_apps, …) or console",
	},
	{Key: "plugins.host-call-params-object",
		RU: "параметры должны быть JSON-объектом",
		EN: "the parameters must be a JSON object",
	},
	{Key: "plugins.host-call-env-file",
		RU: "env_file не принимается: окружение вызова выбирает elemctl – то же, что у команды плагина",
		EN: "env_file is not accepted: elemctl runs the call in the environment of the plugin's command",
	},
	{Key: "plugins.console-method",
		RU: "метод {method} не поддерживается (GET, POST, PUT, PATCH, DELETE)",
		EN: "the method {method} is not supported (GET, POST, PUT, PATCH, DELETE)",
	},
	{Key: "plugins.console-path",
		RU: "путь \"{path}\" – не путь Console API вида /applications/ID (без .., ? и #)",
		EN: "the path \"{path}\" is not a Console API path such as /applications/ID (no .., ? or #)",
	},
	{Key: "plugins.console-api",
		RU: "версия API \"{api}\" не поддерживается (2.0 или 2.1)",
		EN: "the API version \"{api}\" is not supported (2.0 or 2.1)",
	},
}
