package command

import "github.com/elemctl/elemctl/internal/i18n"

func init() {
	i18n.Register(map[string]i18n.Message{
		"cli.help.apps":       {RU: "приложения", EN: "applications"},
		"cli.help.token":      {RU: "получить токен Console API", EN: "obtain a Console API token"},
		"cli.help.apps-list":  {RU: "список приложений (удалённые скрыты)", EN: "list applications (deleted ones hidden)"},
		"cli.help.apps-get":   {RU: "карточка приложения и сборка, которую оно выполняет", EN: "the application card and the build it runs"},
		"cli.help.apps-find":  {RU: "найти приложение по точному имени", EN: "find an application by exact name"},
		"cli.help.apps-debug": {RU: "данные сеанса отладки приложения", EN: "debug session data of the application"},
		"cli.arg.apps-name": {
			RU: "подстрока имени (name, display-name, publication-context), без учёта регистра",
			EN: "name substring (name, display-name, publication-context), case-insensitive",
		},
		"cli.arg.apps-status": {
			RU: "статус целым словом; можно повторять и перечислять через запятую",
			EN: "status as a whole word; repeatable, comma-separated values allowed",
		},
		"cli.arg.include-deleted": {RU: "показывать и удалённые", EN: "include deleted ones"},
		"cli.arg.apps-brief": {
			RU: "краткие карточки: id, name, status, uri, project-version, project-version-id",
			EN: "brief cards: id, name, status, uri, project-version, project-version-id",
		},
		"cli.arg.find-name": {RU: "точное имя приложения", EN: "exact application name"},
		"client.apps-summary": {
			RU: "живых {live} из {total}",
			EN: "{live} live of {total}",
		},
		"client.apps-summary-shown": {
			RU: "живых {live} из {total}, показано {shown}",
			EN: "{live} live of {total}, {shown} shown",
		},
		"mcp.help.list-apps": {
			RU: "Список приложений стенда. Удалённые приложения (статус Deleted) остаются в списке платформы навсегда и здесь СКРЫТЫ, пока не передан include_deleted=true или status=Deleted. Ответ: total, live, shown, summary и applications (краткие карточки при brief=true).",
			EN: "Applications of the stand. Deleted applications (status Deleted) stay in the platform's list forever and are HIDDEN here unless include_deleted=true or status=Deleted is passed. Answer: total, live, shown, summary and applications (brief cards with brief=true).",
		},
		"mcp.arg.apps-name":       {RU: "подстрока имени, без учёта регистра", EN: "name substring, case-insensitive"},
		"mcp.arg.apps-status":     {RU: "статусы через запятую (Running, Stopped, Error, Deleted…)", EN: "comma-separated statuses (Running, Stopped, Error, Deleted…)"},
		"mcp.arg.include-deleted": {RU: "показывать удалённые", EN: "include deleted entries"},
		"mcp.arg.brief":           {RU: "краткие карточки", EN: "brief cards"},
		"mcp.help.get-app": {
			RU: "Карточка приложения (app_id – id или точное имя) и applied-build – сборка, которую оно выполняет (ветка, коммит, dirty из локального реестра выгрузок).",
			EN: "The application card by id or exact name, plus applied-build – the build it runs (branch, commit, dirty from the local upload registry).",
		},
		"mcp.help.find-app": {
			RU: "Найти приложение по точному имени (без учёта регистра): {id, found, application} или {id: null, found: false}.",
			EN: "Find an application by exact name (case-insensitive): {id, found, application} or {id: null, found: false}.",
		},
		"mcp.help.debug-info": {
			RU: "Данные сеанса отладки приложения (app_id – id или точное имя): debug-token, debug-address, client-debug-address.",
			EN: "Debug session data of the application (id or exact name): debug-token, debug-address, client-debug-address.",
		},
	})
}
