package mcp

import "github.com/elemctl/elemctl/internal/i18n"

func init() {
	i18n.Register(httpMessages)
}

// httpMessages are the texts of the HTTP transport, its token, the env_file
// rule over HTTP, the resources and the prompts.
var httpMessages = []i18n.Message{
	{Key: "mcp.http.bad-address",
		RU: "адрес {addr} – не ХОСТ:ПОРТ и не ПОРТ",
		EN: "the address {addr} is neither HOST:PORT nor PORT",
	},
	{Key: "mcp.http.env-file-none",
		RU: "env_file отклонён: по HTTP этот сервер работает только со своим стендом (он запущен без --env-dir, каталога разрешённых .env)",
		EN: "env_file is refused: over HTTP this server works only with its own stand (it was started without --env-dir, the directory of allowed .env files)",
	},
	{Key: "mcp.http.env-file-outside",
		RU: "env_file {path} отклонён: по HTTP можно назвать только файл из каталога --env-dir сервера (путь абсолютный или от этого каталога; ссылки и .. раскрываются до проверки)",
		EN: "env_file {path} is refused: over HTTP only a file in the server's --env-dir may be named (an absolute path or one relative to that directory; links and .. are resolved before the check)",
	},
	{Key: "mcp.http.env-file-missing",
		RU: "файл .env не найден: {path} (искали в каталоге --env-dir сервера)",
		EN: ".env file not found: {path} (looked for it in the server's --env-dir)",
	},
	{Key: "mcp.http.instructions-env",
		RU: "Это подключение по HTTP: env_file может называть только файл .env из каталога, который сервер разрешил (--env-dir), относительный путь считается от этого каталога; без env_file работает стенд сервера.",
		EN: "This is an HTTP connection: env_file may name only a .env file in the directory the server allows (--env-dir), a relative path counts from that directory; without env_file the server's own stand is used.",
	},
	{Key: "mcp.http.env-dir-bad",
		RU: "каталог --env-dir {path} недоступен: {error}",
		EN: "the --env-dir {path} cannot be used: {error}",
	},
	{Key: "mcp.http.token-short",
		RU: "токен MCP-сервера слишком короткий ({source}): нужно не меньше {min} символов без пробелов",
		EN: "the MCP server token is too short ({source}): it needs at least {min} characters without spaces",
	},
	{Key: "mcp.http.token-bad",
		RU: "токен MCP-сервера ({source}) содержит пробелы или управляющие символы",
		EN: "the MCP server token ({source}) contains spaces or control characters",
	},
	{Key: "mcp.http.token-file-open",
		RU: "файл токена {path} недоступен: {error}",
		EN: "the token file {path} cannot be used: {error}",
	},
	{Key: "mcp.http.token-file-shared",
		RU: "файл токена {path} доступен не только владельцу (права {mode}); выполните chmod 600 {path}",
		EN: "the token file {path} is accessible to others than its owner (mode {mode}); run chmod 600 {path}",
	},
	{Key: "mcp.http.token-file-dir",
		RU: "файл токена {path} – каталог",
		EN: "the token file {path} is a directory",
	},
	{Key: "mcp.http.tls-bad",
		RU: "сертификат {cert} и ключ {key} не подходят для HTTPS: {error}",
		EN: "the certificate {cert} and key {key} cannot serve HTTPS: {error}",
	},
	{Key: "mcp.http.stopping",
		RU: "остановка: вызовов в работе – {count}, они прерваны; жду их уборку до {seconds} с (повторный Ctrl+C – не ждать)",
		EN: "stopping: {count} calls in progress are interrupted; waiting up to {seconds} s for their cleanup (Ctrl+C again stops waiting)",
	},
	{Key: "mcp.http.shutdown-forced",
		RU: "остановка без ожидания: уборка прерванных вызовов не закончена",
		EN: "stopping without waiting: the interrupted calls did not finish their cleanup",
	},
	{Key: "mcp.http.shutdown-timeout",
		RU: "остановка: прерванные вызовы не закончили уборку за {seconds} с",
		EN: "stopping: the interrupted calls did not finish their cleanup in {seconds} s",
	},
	{Key: "mcp.resource.apps-name", RU: "Приложения стенда", EN: "Applications of the stand"},
	{Key: "mcp.resource.apps-description",
		RU: "Живые приложения стенда сервера со счётчиками (ответ list_apps)",
		EN: "The live applications of the server's stand with counters (the list_apps answer)",
	},
	{Key: "mcp.resource.projects-name", RU: "Проекты стенда", EN: "Projects of the stand"},
	{Key: "mcp.resource.projects-description",
		RU: "Проекты стенда сервера (ответ list_projects)",
		EN: "The projects of the server's stand (the list_projects answer)",
	},
	{Key: "mcp.resource.app-template-name", RU: "Приложение", EN: "Application"},
	{Key: "mcp.resource.app-template-description",
		RU: "Карточка приложения по id или точному имени, с применённой сборкой (ответ get_app)",
		EN: "An application's card by id or exact name, with the applied build (the get_app answer)",
	},
	{Key: "mcp.resource.builds-template-name", RU: "Сборки проекта", EN: "Builds of a project"},
	{Key: "mcp.resource.builds-template-description",
		RU: "Последние 10 сборок проекта, новые первыми, со строкой о полноте истории (ответ list_builds)",
		EN: "The 10 newest builds of a project with the line about the history's completeness (the list_builds answer)",
	},
	{Key: "mcp.resource.app-description",
		RU: "Приложение {name}: {status}, сборка {version}",
		EN: "Application {name}: {status}, build {version}",
	},
	{Key: "mcp.resource.builds-name", RU: "Сборки {name}", EN: "Builds of {name}"},
	{Key: "mcp.resource.builds-description",
		RU: "Последние сборки проекта {name}",
		EN: "The newest builds of the project {name}",
	},
	{Key: "mcp.resource.list-failed",
		RU: "список ресурсов без приложений и проектов стенда: {error}",
		EN: "the resource list lacks the stand's applications and projects: {error}",
	},
	{Key: "mcp.resource.bad-uri",
		RU: "у ресурса {uri} пустой или неверный идентификатор",
		EN: "the resource {uri} has an empty or malformed id",
	},
	{Key: "mcp.prompt.arg-app",
		RU: "приложение: id или точное имя",
		EN: "the application: its id or exact name",
	},
	{Key: "mcp.prompt.arg-project-dir",
		RU: "каталог проекта (абсолютный путь); пусто – текущий каталог сервера",
		EN: "the project directory (absolute path); empty means the server's current directory",
	},
	{Key: "mcp.prompt.arg-project-id",
		RU: "id проекта на стенде; пусто – проект приложения",
		EN: "the project's id on the stand; empty means the application's project",
	},
	{Key: "mcp.prompt.deploy-description",
		RU: "Развернуть текущий проект в приложение и убедиться, что оно работает на новой сборке",
		EN: "Deploy the current project to an application and make sure it runs the new build",
	},
	{Key: "mcp.prompt.deploy-text",
		RU: "Разверни проект {project_dir} в приложение {app} и проверь, что оно действительно работает на новой сборке.\n" +
			"1. Вызови get_app с app_id {app}: запомни id приложения, его проект (project.id) и сборку, на которой оно работает сейчас (applied-build).\n" +
			"2. Вызови deploy с app_id, project_id {project_id}{project_dir_clause}. Он идёт минутами – дождись отчёта.\n" +
			"3. Прочитай отчёт: ok должно быть true, problems – пустым, applied – true. Платформа молча откатывает неудачное применение, и приложение снова Running на старой сборке, поэтому статус Running ничего не доказывает.\n" +
			"4. Вызови verify_deploy с app_id и expected_version, равным assembly-version из отчёта: нужен ok: true и новая сборка в applied-version-id.\n" +
			"5. Если что-то не так, приведи problems и problems-lines дословно и не повторяй deploy вслепую; причину отката поможет найти list_app_tasks.",
		EN: "Deploy the project {project_dir} to the application {app} and check that it really runs the new build.\n" +
			"1. Call get_app with app_id {app}: note the application's id, its project (project.id) and the build it runs now (applied-build).\n" +
			"2. Call deploy with app_id, project_id {project_id}{project_dir_clause}. It takes minutes – wait for its report.\n" +
			"3. Read the report: ok must be true, problems empty, applied true. The platform silently rolls back a failed apply and the application is Running again on the old build, so the Running status proves nothing.\n" +
			"4. Call verify_deploy with app_id and expected_version set to the report's assembly-version: it must say ok: true and name the new build in applied-version-id.\n" +
			"5. If anything is wrong, quote problems and problems-lines as they are and do not rerun deploy blindly; list_app_tasks helps to find why the apply was rolled back.",
	},
	{Key: "mcp.prompt.project-dir-clause", RU: " и project_dir {dir}", EN: " and project_dir {dir}"},
	{Key: "mcp.prompt.current-dir", RU: "в текущем каталоге сервера", EN: "in the server's current directory"},
	{Key: "mcp.prompt.project-of-app", RU: "из шага 1 (project.id)", EN: "from step 1 (project.id)"},
	{Key: "mcp.prompt.rollback-description",
		RU: "Выяснить, почему платформа откатила последнее применение сборки к приложению",
		EN: "Find out why the platform rolled back the last apply of a build to an application",
	},
	{Key: "mcp.prompt.rollback-text",
		RU: "Выясни, почему платформа откатила последнее применение сборки к приложению {app}.\n" +
			"1. Вызови get_app с app_id {app}: сборка, на которой приложение работает сейчас (applied-build), и его проект (project.id).\n" +
			"2. Вызови list_app_tasks с app_id {app}: найди последнюю задачу UpdateApplication (или любую со статусом Failed); её error-message – причина, которую назвала платформа.\n" +
			"3. Вызови list_builds с project_id из шага 1: новейшая сборка – та, что применялась; сравни её с applied-build.\n" +
			"4. Вызови verify_deploy с app_id {app} и expected_version, равным assembly-version новейшей сборки: problems и problems-lines называют файл и строку, которые отверг сервер, а hint подскажет, где искать, если платформа причину не назвала.\n" +
			"Ответь: причина отката, файл и строка (если известны) и на какой сборке приложение работает сейчас. Ничего не меняй на стенде.",
		EN: "Find out why the platform rolled back the last apply of a build to the application {app}.\n" +
			"1. Call get_app with app_id {app}: the build the application runs now (applied-build) and its project (project.id).\n" +
			"2. Call list_app_tasks with app_id {app}: find the latest UpdateApplication task (or any task with status Failed); its error-message is the reason the platform gave.\n" +
			"3. Call list_builds with project_id from step 1: the newest build is the one that was applied; compare it with applied-build.\n" +
			"4. Call verify_deploy with app_id {app} and expected_version set to the newest build's assembly-version: problems and problems-lines name the file and line the server refused, and hint says where to look when the platform gave no reason.\n" +
			"Answer with the reason for the rollback, the file and line when known, and the build the application runs now. Change nothing on the stand.",
	},
	{Key: "mcp.prompt.missing-argument",
		RU: "подсказке {prompt} нужен аргумент {name}",
		EN: "the prompt {prompt} needs the argument {name}",
	},
}
