package mcp

import (
	"slices"

	"github.com/elemctl/elemctl/internal/i18n"
)

// Messages are this package's entries of the message catalog, for
// i18n.Register.
var Messages = slices.Concat(messages, httpMessages)

var messages = []i18n.Message{
	{Key: "mcp.server.cli-help",
		RU: "MCP-сервер для ИИ-агентов (stdio, или HTTP с --http): все операции elemctl как инструменты",
		EN: "MCP server for AI agents (stdio, or HTTP with --http): every elemctl operation as a tool",
	},
	{Key: "mcp.server.instructions-head",
		RU: "elemctl управляет приложениями, проектами и сборками 1C:Enterprise.Element через Console API.",
		EN: "elemctl manages 1C:Enterprise.Element applications, projects and builds through the Console API.",
	},
	{Key: "mcp.server.instructions-rollback",
		RU: "Платформа молча откатывает неудачное применение сборки: приложение возвращается на прежнюю сборку и снова в статусе Running, поэтому Running – ещё не успех. Верьте только отчётам deploy и verify_deploy: ok, problems и применённой сборке, сверенной по applied-version-id; поля assembly-version и renumbered говорят, какой номер сборке дал сервер.",
		EN: "The platform silently rolls back a failed apply: the application returns to its previous build and is Running again, so Running is not success. Trust only the deploy and verify_deploy reports: ok, problems and the applied build compared by applied-version-id; the fields assembly-version and renumbered tell which number the server gave the build.",
	},
	{Key: "mcp.server.instructions-slow",
		RU: "{tools} идут минутами и блокируют вызов: надёжнее запускать их фоновым процессом CLI (elemctl deploy …) и читать его JSON. Если клиент передал progressToken, сервер шлёт уведомления о ходе; весь ход работы есть и в поле log ответа.",
		EN: "{tools} take minutes and block the call: it is safer to run them as a background CLI process (elemctl deploy …) and read its JSON. When the client sends a progressToken the server sends progress notifications; the whole progress is also in the answer's log field.",
	},
	{Key: "mcp.server.instructions-env",
		RU: "Стенд по умолчанию – тот, с которым запущен сервер; любой другой стенд доступен через параметр env_file – путь к его .env. Относительные пути (env_file, project_dir, output) считаются от текущего каталога сервера, поэтому надёжнее передавать абсолютные.",
		EN: "The default stand is the one the server started with; any other stand is reached through the env_file parameter – the path of its .env. Relative paths (env_file, project_dir, output) are resolved from the server's current directory, so absolute ones are safer.",
	},
	{Key: "mcp.server.instructions-local",
		RU: "{tools} – локальные: у них нет env_file и окружения, к платформе они не обращаются.",
		EN: "{tools} are local: they have no env_file and no environment, and never reach the platform.",
	},
	{Key: "mcp.server.arg-env-file",
		RU: "путь к .env другого стенда (абсолютный или от текущего каталога сервера); пусто – стенд, с которым запущен сервер",
		EN: "path of another stand's .env (absolute or relative to the server's current directory); empty means the stand the server started with",
	},
	{Key: "mcp.server.plugin-not-loaded",
		RU: "плагин '{source}' не загрузился, его инструментов нет: {error}",
		EN: "plugin '{source}' did not load, its tools are unavailable: {error}",
	},
	{Key: "mcp.server.tool-name-taken",
		RU: "инструмент {tool} уже есть в elemctl ({owner}); задайте команде другое mcp_name",
		EN: "the tool {tool} already exists in elemctl ({owner}); the mcp_name of the command helps here",
	},
	{Key: "mcp.server.cancelled-ended",
		RU: "вызов {tool} отменён клиентом; он завершился так: {error}",
		EN: "the call of {tool} was cancelled by the client; it ended with: {error}",
	},
	{Key: "mcp.server.owner-core", RU: "ядро", EN: "the core"},
	{Key: "mcp.server.stdio-stopping",
		RU: "остановка: вызовов в работе – {count}, они прерваны; жду их уборку до {seconds} с",
		EN: "stopping: {count} calls in progress are interrupted; waiting up to {seconds} s for their cleanup",
	},
	{Key: "mcp.server.stdio-timeout",
		RU: "вызовы не закончили уборку за {seconds} с; сервер завершается без них",
		EN: "the calls did not finish their cleanup within {seconds} s; the server ends without them",
	},
}
