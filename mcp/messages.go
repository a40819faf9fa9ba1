package mcp

import "github.com/elemctl/elemctl/internal/i18n"

func init() {
	i18n.Register(map[string]i18n.Message{
		"mcp.server.cli-help": {
			RU: "MCP-сервер для ИИ-агентов (stdio): все операции elemctl как инструменты",
			EN: "MCP server for AI agents (stdio): every elemctl operation as a tool",
		},
		"mcp.server.instructions-head": {
			RU: "elemctl управляет приложениями, проектами и сборками 1C:Enterprise.Element через Console API.",
			EN: "elemctl manages 1C:Enterprise.Element applications, projects and builds through the Console API.",
		},
		"mcp.server.instructions-rollback": {
			RU: "Платформа молча откатывает неудачное применение сборки: приложение возвращается на прежнюю сборку и снова в статусе Running, поэтому Running – ещё не успех. Верьте только отчётам deploy и verify_deploy: ok, problems и применённой сборке, сверенной по applied-version-id; поля assembly-version и renumbered говорят, какой номер сборке дал сервер.",
			EN: "The platform silently rolls back a failed apply: the application returns to its previous build and is Running again, so Running is not success. Trust only the deploy and verify_deploy reports: ok, problems and the applied build compared by applied-version-id; the fields assembly-version and renumbered tell which number the server gave the build.",
		},
		"mcp.server.instructions-slow": {
			RU: "{tools} идут минутами и блокируют вызов: надёжнее запускать их фоновым процессом CLI (elemctl deploy …) и читать его JSON. Если клиент передал progressToken, сервер шлёт уведомления о ходе; весь ход работы есть и в поле log ответа.",
			EN: "{tools} take minutes and block the call: it is safer to run them as a background CLI process (elemctl deploy …) and read its JSON. When the client sends a progressToken the server sends progress notifications; the whole progress is also in the answer's log field.",
		},
		"mcp.server.instructions-env": {
			RU: "Стенд по умолчанию – тот, с которым запущен сервер; любой другой стенд доступен через параметр env_file – путь к его .env. Относительные пути (env_file, project_dir, output) считаются от текущего каталога сервера, поэтому надёжнее передавать абсолютные.",
			EN: "The default stand is the one the server started with; any other stand is reached through the env_file parameter – the path of its .env. Relative paths (env_file, project_dir, output) are resolved from the server's current directory, so absolute ones are safer.",
		},
		"mcp.server.instructions-local": {
			RU: "{tools} – локальные: у них нет env_file и окружения, к платформе они не обращаются.",
			EN: "{tools} are local: they have no env_file and no environment, and never reach the platform.",
		},
		"mcp.server.arg-env-file": {
			RU: "путь к .env другого стенда (абсолютный или от текущего каталога сервера); пусто – стенд, с которым запущен сервер",
			EN: "path of another stand's .env (absolute or relative to the server's current directory); empty means the stand the server started with",
		},
		"mcp.server.plugin-not-loaded": {
			RU: "плагин '{source}' не загрузился, его инструментов нет: {error}",
			EN: "plugin '{source}' did not load, its tools are unavailable: {error}",
		},
		"mcp.server.tool-name-taken": {
			RU: "инструмент {tool} уже есть в elemctl ({owner}); задайте команде другое mcp_name",
			EN: "the tool {tool} already exists in elemctl ({owner}); the mcp_name of the command helps here",
		},
		"mcp.server.owner-core": {RU: "ядро", EN: "the core"},
		"mcp.server.bad-arguments": {
			RU: "аргументы инструмента {tool} должны быть объектом JSON",
			EN: "the arguments of the tool {tool} must be a JSON object",
		},
		"mcp.server.unknown-parameter": {
			RU: "у инструмента {tool} нет параметра {name}; есть: {known}",
			EN: "the tool {tool} has no parameter {name}; it has: {known}",
		},
		"mcp.server.missing-parameter": {
			RU: "инструменту {tool} нужен параметр {name}",
			EN: "the tool {tool} needs the parameter {name}",
		},
		"mcp.server.wrong-type": {
			RU: "параметр {name} инструмента {tool} должен быть {want}, а передано {got}",
			EN: "the parameter {name} of the tool {tool} must be {want}, got {got}",
		},
		"mcp.server.panic": {
			RU: "внутренняя ошибка elemctl в инструменте {tool}: {error} (сервер продолжает работу)",
			EN: "internal elemctl error in the tool {tool}: {error} (the server keeps running)",
		},
		"mcp.server.type-string":  {RU: "строкой", EN: "a string"},
		"mcp.server.type-integer": {RU: "целым числом", EN: "an integer"},
		"mcp.server.type-number":  {RU: "числом", EN: "a number"},
		"mcp.server.type-boolean": {RU: "true или false", EN: "true or false"},
		"mcp.server.type-array":   {RU: "списком", EN: "a list"},
		"mcp.server.or-list":      {RU: "{one} или списком", EN: "{one} or a list"},
		"mcp.server.got-null":     {RU: "null", EN: "null"},
		"mcp.server.got-object":   {RU: "объект", EN: "an object"},
		"mcp.server.got-array":    {RU: "список", EN: "a list"},
		"mcp.server.got-string":   {RU: "строка", EN: "a string"},
		"mcp.server.got-number":   {RU: "число", EN: "a number"},
		"mcp.server.got-boolean":  {RU: "логическое значение", EN: "a boolean"},
	})
}
