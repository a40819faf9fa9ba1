package command

import "github.com/elemctl/elemctl/internal/i18n"

// Messages of the platform command tree: applications beyond list/get,
// spaces, projects, builds, user lists, branches, dumps, tasks, tech.
func init() {
	i18n.Register(map[string]i18n.Message{
		// apps start | stop | delete
		"cli.help.apps-start":  {RU: "запустить приложение", EN: "start the application"},
		"cli.help.apps-stop":   {RU: "остановить приложение", EN: "stop the application"},
		"cli.help.apps-delete": {RU: "удалить приложение (ELEMENT_APP_ID не берётся)", EN: "delete the application (ELEMENT_APP_ID is not taken)"},
		"mcp.help.start-app": {
			RU: "Запустить приложение (app_id – id или точное имя). Ответ платформы или {ok: true, app-id}.",
			EN: "Start the application (app_id – id or exact name). The platform's answer or {ok: true, app-id}.",
		},
		"mcp.help.stop-app": {
			RU: "Остановить приложение (app_id – id или точное имя). Ответ платформы или {ok: true, app-id}.",
			EN: "Stop the application (app_id – id or exact name). The platform's answer or {ok: true, app-id}.",
		},
		"mcp.help.delete-app": {
			RU: "Удалить приложение (app_id – id или точное имя). Удаление идёт в фоне минуты; приложение остаётся в списке со статусом Deleted, а его URL перестаёт открываться. Отказ FAILED_PRECONDITION: в среде разработки есть неопубликованные изменения, удалите через панель управления. Ответ платформы или {deleted: true, app-id}.",
			EN: "Delete the application (app_id – id or exact name). The deletion runs in the background for minutes; the application stays listed with status Deleted and its URL stops answering. A FAILED_PRECONDITION refusal means unpublished development changes: delete it through the control panel. The platform's answer or {deleted: true, app-id}.",
		},

		// apps users | token-access
		"cli.help.apps-users": {
			RU: "пользователи, подключённые к приложению, и их доступ по токену",
			EN: "users connected to the application and their token access",
		},
		"mcp.help.list-app-users": {
			RU: "Пользователи, подключённые к приложению (app_id – id или точное имя): {app-id, total, summary, users}; у каждого user-list-id, user-id, presentation, is-admin, token-access-enabled.",
			EN: "Users connected to the application (app_id – id or exact name): {app-id, total, summary, users}; each with user-list-id, user-id, presentation, is-admin, token-access-enabled.",
		},
		"client.app-users-summary": {
			RU: "подключено {total}: администраторов {admins}, с доступом по токену {tokens}",
			EN: "{total} connected: {admins} administrators, {tokens} with token access",
		},
		"cli.help.apps-token-access": {
			RU: "доступ по токену к HTTP-сервисам приложения: прочитать или переключить (--enable/--disable)",
			EN: "token access to the application's HTTP services: read it or switch it (--enable/--disable)",
		},
		"cli.arg.token-access-user": {
			RU: "логин, представление или id пользователя; можно повторять; без флага – учётная запись, под которой работает elemctl",
			EN: "login, presentation or id of the user; repeatable; without it – the account elemctl signs in with",
		},
		"cli.arg.token-access-enable":  {RU: "включить доступ по токену", EN: "enable token access"},
		"cli.arg.token-access-disable": {RU: "выключить доступ по токену", EN: "disable token access"},
		"mcp.help.token-access": {
			RU: "Доступ по токену к HTTP-сервисам приложения: без него вызов сервиса с токеном пользователя падает с 500 Token access is denied. user – логин, представление или id (или их список; пусто – учётная запись elemctl); enabled – true/false переключает, null только читает. Один пользователь – отчёт; несколько – {ok, app-id, users}.",
			EN: "Token access to the application's HTTP services: without it a call with the user's token fails with 500 Token access is denied. user – login, presentation or id (or a list of them; empty – elemctl's own account); enabled – true/false switches, null only reads. One user gives a report; several give {ok, app-id, users}.",
		},
		"mcp.arg.token-access-user": {
			RU: "логин, представление или id пользователя, или список; пусто – учётная запись elemctl",
			EN: "login, presentation or id of the user, or a list; empty – elemctl's own account",
		},
		"mcp.arg.token-access-enabled": {RU: "true – включить, false – выключить, null – только прочитать", EN: "true – enable, false – disable, null – read only"},
		"cli.token-access-both": {
			RU: "--enable и --disable взаимоисключающие",
			EN: "--enable and --disable are mutually exclusive",
		},
		"cli.token-access-app-missing": {
			RU: "не задано app-id (аргумент APP_ID или --app-id; ELEMENT_APP_ID здесь не берётся)",
			EN: "app-id (APP_ID argument or --app-id; ELEMENT_APP_ID is not taken here) is not set",
		},
		"client.token-access-user-gone": {
			RU: "после переключения пользователь {user} больше не подключён к приложению {app}",
			EN: "after the switch the user {user} is no longer connected to the application {app}",
		},
		"client.token-access-not-moved": {
			RU: "доступ по токену пользователя {user} в приложении {app} не переключился: платформа по-прежнему сообщает token-access-enabled={state}",
			EN: "the token access of the user {user} in the application {app} did not switch: the platform still reports token-access-enabled={state}",
		},
		"client.app-user-ambiguous": {
			RU: "пользователю '{user}' соответствуют несколько подключённых: {ids} – передайте id пользователя",
			EN: "'{user}' matches several connected users: {ids} – pass the user id",
		},
		"client.app-user-not-connected": {
			RU: "пользователь '{user}' не подключён к приложению {app} (ни по представлению, ни по логину, ни по id); подключены: {users}",
			EN: "the user '{user}' is not connected to the application {app} (neither by presentation, login nor id); connected: {users}",
		},
		"client.tree-none": {RU: "нет", EN: "none"},

		// apps export | export-extension
		"cli.help.apps-export": {
			RU: "скачать сборку, которую выполняет приложение (.xasm)",
			EN: "download the build the application runs (.xasm)",
		},
		"cli.help.apps-export-extension": {
			RU: "скачать сборку расширения, применённого к приложению (Console API 2.1)",
			EN: "download the build of an extension applied to the application (Console API 2.1)",
		},
		"cli.arg.export-output": {
			RU: "файл или каталог (существующий либо с / на конце); по умолчанию – текущий каталог, имя «{Name} {Version}.xasm»",
			EN: "a file or a directory (existing, or ending with /); default – the current directory, name \"{Name} {Version}.xasm\"",
		},
		"cli.arg.export-extension": {
			RU: "расширение: id, project-id, имя или представление проекта",
			EN: "the extension: id, project-id, project name or presentation",
		},
		"mcp.help.export-app": {
			RU: "Скачать сборку, которую выполняет приложение (app_id – id или точное имя), в файл .xasm: {file, size, manifest}. Расширения в неё не входят.",
			EN: "Download the build the application runs (app_id – id or exact name) into a .xasm file: {file, size, manifest}. Extensions are not included.",
		},
		"mcp.help.export-extension": {
			RU: "Скачать сборку расширения, применённого к приложению (Console API 2.1): extension – id, project-id, имя или представление проекта расширения. Ответ {file, size, manifest, extension-id, project-id, vendor-name, project-name, assembly-version, enabled}.",
			EN: "Download the build of an extension applied to the application (Console API 2.1): extension – id, project-id, name or presentation of the extension project. Answer {file, size, manifest, extension-id, project-id, vendor-name, project-name, assembly-version, enabled}.",
		},
		"mcp.arg.export-output":    {RU: "файл или каталог; пусто – текущий каталог", EN: "a file or a directory; empty – the current directory"},
		"mcp.arg.export-extension": {RU: "расширение: id, project-id, имя или представление проекта", EN: "the extension: id, project-id, project name or presentation"},
		"client.export-what-app": {
			RU: "выгрузка проекта приложения {app}",
			EN: "the export of the project of the application {app}",
		},
		"client.export-what-extension": {
			RU: "выгрузка расширения {extension} приложения {app}",
			EN: "the export of the extension {extension} of the application {app}",
		},
		"client.export-not-archive": {
			RU: "{what} вернула не архив сборки ({size} байт, начало: {beginning}); файл не записан",
			EN: "{what} returned no build archive ({size} bytes, beginning: {beginning}); no file was written",
		},
		"client.extension-not-found": {
			RU: "расширение '{ref}' не найдено среди применённых к приложению {app}; применены: {extensions}",
			EN: "extension '{ref}' not found among those applied to the application {app}; applied: {extensions}",
		},
		"client.extension-ambiguous": {
			RU: "расширение '{ref}' неоднозначно в приложении {app}: {extensions} – передайте id",
			EN: "extension '{ref}' is ambiguous in the application {app}: {extensions} – pass the id",
		},

		// spaces
		"cli.help.spaces":      {RU: "пространства", EN: "spaces"},
		"cli.help.spaces-list": {RU: "список пространств", EN: "list spaces"},
		"mcp.help.list-spaces": {RU: "Пространства стенда.", EN: "Spaces of the stand."},

		// projects
		"cli.help.projects":      {RU: "проекты", EN: "projects"},
		"cli.help.projects-list": {RU: "список проектов (удалённые скрыты)", EN: "list projects (deleted ones hidden)"},
		"cli.arg.projects-name": {
			RU: "подстрока имени или представления, без учёта регистра",
			EN: "substring of the name or presentation, case-insensitive",
		},
		"cli.help.projects-get":         {RU: "карточка проекта", EN: "the project card"},
		"cli.help.projects-delete":      {RU: "удалить проект", EN: "delete the project"},
		"cli.arg.project-id-positional": {RU: "id проекта (по умолчанию ELEMENT_PROJECT_ID)", EN: "project id (default ELEMENT_PROJECT_ID)"},
		"cli.arg.project-id-delete":     {RU: "id проекта", EN: "project id"},
		"mcp.help.list-projects": {
			RU: "Проекты стенда. Удалённые проекты остаются в списке платформы и здесь скрыты, пока не передан include_deleted=true. Краткая карточка: id, name, project-kind, space-id, application-count, deleted.",
			EN: "Projects of the stand. Deleted projects stay in the platform's list and are hidden here unless include_deleted=true. Brief card: id, name, project-kind, space-id, application-count, deleted.",
		},
		"mcp.arg.projects-name": {RU: "подстрока имени, без учёта регистра", EN: "name substring, case-insensitive"},

		// builds
		"cli.help.builds":      {RU: "сборки проектов на платформе", EN: "builds of projects on the platform"},
		"cli.help.builds-list": {RU: "сборки проекта, новые первыми, и строка об их истории", EN: "builds of the project, newest first, and a line about their history"},
		"cli.help.builds-get":  {RU: "карточка сборки по версии или id", EN: "the build card by version or id"},
		"cli.help.builds-delete": {
			RU: "удалить сборку по версии или id (платформа откажет 500, пока живо приложение, созданное из неё)",
			EN: "delete a build by version or id (the platform refuses with 500 while an application created from it lives)",
		},
		"cli.arg.builds-project-id": {RU: "id проекта (по умолчанию ELEMENT_PROJECT_ID)", EN: "project id (default ELEMENT_PROJECT_ID)"},
		"cli.arg.builds-limit":      {RU: "сколько сборок показать (0 – все)", EN: "how many builds to show (0 – all)"},
		"cli.arg.builds-brief": {
			RU: "краткие карточки: версии, дата, ветка и коммит (с источником), dirty и каталог проекта из локального реестра",
			EN: "brief cards: versions, date, branch and commit (with their source), dirty and project dir from the local registry",
		},
		"cli.arg.build-version-ref": {RU: "версия сборки (1.0-42) или её id", EN: "build version (1.0-42) or its id"},
		"mcp.help.list-builds": {
			RU: "Сборки проекта, новые первыми: {total, shown, summary, builds}. summary говорит, вся ли это история: платформа сама удаляет неиспользуемые сборки при применении, а пропуски в нумерации от загрузок без id проекта – скачки, а не удаления. limit=0 – все сборки.",
			EN: "Builds of the project, newest first: {total, shown, summary, builds}. summary tells whether this is the whole history: the platform deletes unused builds when an application applies a build, while gaps from uploads without a project id are jumps, not deletions. limit=0 shows all.",
		},
		"mcp.help.get-build": {
			RU: "Полная карточка сборки проекта. Адрес карточки на платформе – ВЕРСИЯ сборки (1.0-42): по UUID платформа отвечает 404, поэтому id сборки сначала ищется в списке сборок проекта.",
			EN: "The full card of a project's build. The platform addresses a build card by its VERSION (1.0-42): a UUID is answered 404, so a build id is first looked up in the project's build list.",
		},
		"mcp.arg.builds-project-id": {RU: "id проекта", EN: "project id"},
		"mcp.arg.builds-limit":      {RU: "сколько сборок показать (0 – все)", EN: "how many builds to show (0 – all)"},
		"mcp.arg.build-version-ref": {RU: "версия (1.0-42) или id сборки", EN: "version (1.0-42) or build id"},
		"client.build-not-found": {
			RU: "сборка '{ref}' не найдена в проекте {project} (ни по версии, ни по id)",
			EN: "assembly '{ref}' not found in project {project} (neither by version nor by id)",
		},

		// builds upload
		"cli.help.builds-upload": {
			RU: "загрузить файл сборки (.xasm/.xlib) на платформу",
			EN: "upload a build file (.xasm/.xlib) to the platform",
		},
		"cli.arg.upload-file": {RU: "файл сборки", EN: "the build file"},
		"cli.arg.upload-project-id": {
			RU: "загрузить в этот проект (по умолчанию ELEMENT_PROJECT_ID); платформа сама нумерует сборку",
			EN: "upload into this project (default ELEMENT_PROJECT_ID); the platform numbers the build itself",
		},
		"cli.arg.upload-new-project": {
			RU: "загрузить без id проекта: платформа выберет проект по Ид из Проект.yaml (или создаст новый), версия архива сохранится",
			EN: "upload without a project id: the platform picks the project by the Id of Project.yaml (or creates one), the archive's version is kept",
		},
		"cli.arg.upload-force-rename": {
			RU: "загрузить, даже если проект получит имя из архива",
			EN: "upload even though the project takes the archive's name",
		},
		"cli.arg.upload-space-id": {RU: "пространство (по умолчанию ELEMENT_SPACE_ID)", EN: "the space (default ELEMENT_SPACE_ID)"},
		"cli.upload-file-missing": {
			RU: "файл сборки не найден: {path}",
			EN: "build file not found: {path}",
		},
		"cli.upload-new-project-and-id": {
			RU: "--new-project и --project-id взаимоисключающие",
			EN: "--new-project and --project-id are mutually exclusive",
		},
		"cli.upload-project-from-env": {
			RU: "проект взят из ELEMENT_PROJECT_ID: {project}; чтобы загрузить без id проекта (проект выберет платформа по Ид), добавьте --new-project",
			EN: "the project is taken from ELEMENT_PROJECT_ID: {project}; to upload without a project id (the platform picks the project by its Id), add --new-project",
		},
		"cli.upload-renumbered": {
			RU: "внимание: платформа дала сборке номер {version} вместо {archive} из архива",
			EN: "warning: the platform numbered the build {version} instead of the archive's {archive}",
		},

		// branches
		"cli.help.branches":         {RU: "ветки среды разработки", EN: "development-environment branches"},
		"cli.help.branches-list":    {RU: "список веток", EN: "list branches"},
		"cli.help.branches-get":     {RU: "карточка ветки", EN: "the branch card"},
		"cli.help.branches-create":  {RU: "создать ветку разработки", EN: "create a development branch"},
		"cli.help.branches-update":  {RU: "переписать ветку (с --app-id – привязать к другому приложению)", EN: "rewrite the branch (with --app-id – bind it to another application)"},
		"cli.help.branches-delete":  {RU: "удалить ветку", EN: "delete the branch"},
		"cli.help.branches-merge":   {RU: "принять изменения ветки", EN: "accept the branch's changes"},
		"cli.arg.branch-id":         {RU: "id ветки", EN: "branch id"},
		"cli.arg.branch-name":       {RU: "имя ветки", EN: "branch name"},
		"cli.arg.branch-project-id": {RU: "проект ветки (по умолчанию ELEMENT_PROJECT_ID)", EN: "the branch's project (default ELEMENT_PROJECT_ID)"},
		"cli.arg.branch-app-id":     {RU: "приложение ветки: id или точное имя", EN: "the branch's application: id or exact name"},
		"cli.arg.branch-rebind-app-id": {
			RU: "привязать ветку к этому приложению (id или точное имя)",
			EN: "bind the branch to this application (id or exact name)",
		},
		"cli.arg.branches-project-id": {RU: "только ветки этого проекта", EN: "only branches of this project"},
		"cli.arg.branches-name":       {RU: "только ветки с этим именем", EN: "only branches with this name"},
		"mcp.help.list-branches":      {RU: "Ветки среды разработки, с фильтром по проекту и имени.", EN: "Development-environment branches, filtered by project and name."},
		"mcp.help.merge-branch": {
			RU: "Принять изменения ветки (branch_id). Занимает минуты. Ответ платформы или {merged: true, branch-id}.",
			EN: "Accept the changes of a branch (branch_id). Takes minutes. The platform's answer or {merged: true, branch-id}.",
		},
		"mcp.arg.branches-project-id": {RU: "id проекта; пусто – все", EN: "project id; empty – all"},
		"mcp.arg.branches-name":       {RU: "имя ветки; пусто – все", EN: "branch name; empty – all"},
		"mcp.arg.branch-id":           {RU: "id ветки", EN: "branch id"},

		// dumps
		"cli.help.dumps":           {RU: "выгрузки данных приложений", EN: "data dumps of applications"},
		"cli.help.dumps-create":    {RU: "начать выгрузку данных приложения (с пользователями и двоичными данными)", EN: "start a data dump of the application (with users and binary data)"},
		"cli.help.dumps-get":       {RU: "состояние выгрузки", EN: "the state of a dump"},
		"cli.arg.dump-description": {RU: "описание выгрузки", EN: "dump description"},
		"cli.arg.dump-id":          {RU: "id выгрузки", EN: "dump id"},

		// tech
		"cli.help.tech":        {RU: "версия технологии приложений", EN: "technology version of applications"},
		"cli.help.tech-get":    {RU: "версия технологии приложения", EN: "the technology version of the application"},
		"cli.help.tech-set":    {RU: "перевести приложение на версию технологии (групповая задача)", EN: "move the application to a technology version (a group task)"},
		"cli.arg.tech-version": {RU: "версия технологии", EN: "technology version"},

		// tasks
		"cli.help.tasks": {RU: "задачи приложений", EN: "application tasks"},
		"cli.help.tasks-description": {
			RU: "Задачи приложений: tasks list [--app-id ID] – задачи всех приложений или одного; tasks get-group TASK_ID – групповая задача.",
			EN: "Application tasks: tasks list [--app-id ID] – the tasks of all applications or of one; tasks get-group TASK_ID – a group task.",
		},
		"cli.help.tasks-list":      {RU: "задачи приложений (в порядке создания)", EN: "application tasks (in creation order)"},
		"cli.help.tasks-get-group": {RU: "групповая задача", EN: "a group task"},
		"cli.arg.tasks-app-id":     {RU: "только задачи приложения с этим id", EN: "only the tasks of the application with this id"},
		"cli.arg.task-id":          {RU: "id групповой задачи", EN: "group task id"},
		"mcp.help.list-app-tasks": {
			RU: "Задачи приложений (создание, обновление, удаление) в порядке создания; app_id – только задачи приложения с этим id.",
			EN: "Application tasks (create, update, delete) in creation order; app_id – only the tasks of the application with this id.",
		},
		"mcp.arg.tasks-app-id": {RU: "id приложения; пусто – все", EN: "application id; empty – all"},

		// user-lists
		"cli.help.user-lists":      {RU: "списки пользователей", EN: "user lists"},
		"cli.help.user-lists-list": {RU: "списки пользователей", EN: "list user lists"},
		"cli.help.user-lists-get":  {RU: "карточка списка пользователей", EN: "the user list card"},
		"cli.help.user-lists-self-registration": {
			RU: "самостоятельная регистрация пользователей: прочитать или переключить",
			EN: "self-registration of users: read or switch it",
		},
		"cli.help.user-lists-password-login": {
			RU: "вход по логину и паролю (служба Local): прочитать или переключить",
			EN: "sign-in with login and password (the Local service): read or switch it",
		},
		"cli.help.user-lists-calculation-rules": {
			RU: "правила вычисления свойств пользователя службы входа (только запись)",
			EN: "user property calculation rules of an account service (write-only)",
		},
		"cli.arg.user-list":         {RU: "список: id или точное представление", EN: "the list: id or exact presentation"},
		"cli.arg.user-list-app":     {RU: "список пользователей этого приложения (id или точное имя)", EN: "the user list of this application (id or exact name)"},
		"cli.arg.user-list-enable":  {RU: "включить", EN: "enable"},
		"cli.arg.user-list-disable": {RU: "выключить", EN: "disable"},
		"cli.arg.user-lists-name":   {RU: "подстрока представления, без учёта регистра", EN: "presentation substring, case-insensitive"},
		"cli.arg.rules-file":        {RU: "JSON-объект с правилами (UTF-8)", EN: "a JSON object with the rules (UTF-8)"},
		"cli.arg.rule-response-kind": {
			RU: "вид ответа службы (response-kind)",
			EN: "the kind of the service's answer (response-kind)",
		},
		"cli.arg.rule-presentation": {RU: "правило представления (presentation-rule)", EN: "presentation rule (presentation-rule)"},
		"cli.arg.rule-phone":        {RU: "правило телефона (phone-rule)", EN: "phone rule (phone-rule)"},
		"cli.arg.rule-email":        {RU: "правило почты (email-rule)", EN: "email rule (email-rule)"},
		"cli.arg.rule-service":      {RU: "id службы входа", EN: "account service id"},
		"cli.arg.rule-service-type": {RU: "тип службы входа, если id не задан", EN: "account service type when no id is given"},
		"cli.enable-disable-both": {
			RU: "--enable и --disable взаимоисключающие",
			EN: "--enable and --disable are mutually exclusive",
		},
		"cli.user-list-both": {
			RU: "список задан дважды: LIST и --app – оставьте одно",
			EN: "the list is given twice: LIST and --app – keep one",
		},
		"mcp.user-list-both": {
			RU: "список задан дважды: list_id и app_id – оставьте одно",
			EN: "the list is given twice: list_id and app_id – keep one",
		},
		"mcp.user-list-none": {
			RU: "не задан список: list_id (id или представление) или app_id (его список пользователей по умолчанию)",
			EN: "no list given: list_id (id or presentation) or app_id (its default user list)",
		},
		"cli.user-list-none": {
			RU: "не задан список: LIST (id или представление) или --app APP",
			EN: "no list given: LIST (id or presentation) or --app APP",
		},
		"cli.user-list-app-none": {
			RU: "у приложения '{app}' нет своего списка пользователей (default-user-list)",
			EN: "the application '{app}' has no user list of its own (default-user-list)",
		},
		"cli.user-list-not-found": {
			RU: "список пользователей '{ref}' не найден (ни по id, ни по точному представлению)",
			EN: "user list '{ref}' not found (neither by id nor by exact presentation)",
		},
		"cli.user-list-ambiguous": {
			RU: "представление '{ref}' неоднозначно: {ids} – передайте id",
			EN: "the presentation '{ref}' is ambiguous: {ids} – pass the id",
		},
		"cli.password-login-no-local": {
			RU: "у списка {list} нет службы входа Local: вход по логину и паролю не переключить через API",
			EN: "the list {list} has no Local account service: sign-in with login and password cannot be switched through the API",
		},
		"cli.rules-no-service": {
			RU: "в списке {list} нет службы входа {service}",
			EN: "the list {list} has no account service {service}",
		},
		"cli.rules-file-unreadable": {
			RU: "не удалось прочитать файл правил {path}: {error}",
			EN: "failed to read the rules file {path}: {error}",
		},
		"cli.rules-file-not-object": {
			RU: "файл правил {path} должен содержать JSON-объект",
			EN: "the rules file {path} must hold a JSON object",
		},
		"cli.rules-unknown-keys": {
			RU: "недопустимые ключи правил: {keys} (допустимы: {allowed})",
			EN: "rule keys not allowed: {keys} (allowed: {allowed})",
		},
		"cli.rules-note-write-only": {
			RU: "платформа не возвращает правила вычисления: их можно только записать (--rules-file или флаги правил)",
			EN: "the platform never returns calculation rules: they can only be written (--rules-file or the rule flags)",
		},
		"cli.rules-note-written": {
			RU: "правила записаны, но платформа их не возвращает, поэтому проверить запись нельзя",
			EN: "the rules are written, but the platform never returns them, so the write cannot be verified",
		},
		"cli.rules-next": {
			RU: "войдите через эту службу и проверьте представление, телефон и почту созданного пользователя",
			EN: "sign in through this service and check the presentation, phone and email of the user it creates",
		},
		"mcp.help.list-user-lists": {
			RU: "Списки пользователей (панели управления и по одному на приложение); name – подстрока представления.",
			EN: "User lists (the control panel's and one per application); name – presentation substring.",
		},
		"mcp.help.configure-user-list": {
			RU: "Прочитать или переключить самостоятельную регистрацию и вход по логину и паролю списка пользователей. Ровно одно из list_id (id или представление) и app_id (список приложения). true/false переключает, null только читает. Ответ {list-id, self-registration-enabled, password-login-enabled, changed}.",
			EN: "Read or switch self-registration and sign-in with login and password of a user list. Exactly one of list_id (id or presentation) and app_id (the application's list). true/false switches, null only reads. Answer {list-id, self-registration-enabled, password-login-enabled, changed}.",
		},
		"mcp.arg.user-list-id":      {RU: "список: id или точное представление", EN: "the list: id or exact presentation"},
		"mcp.arg.user-list-app":     {RU: "приложение, чей список настроить (id или точное имя)", EN: "the application whose list to configure (id or exact name)"},
		"mcp.arg.self-registration": {RU: "самостоятельная регистрация: true/false, null – не менять", EN: "self-registration: true/false, null – leave as is"},
		"mcp.arg.password-login":    {RU: "вход по логину и паролю: true/false, null – не менять", EN: "sign-in with login and password: true/false, null – leave as is"},
		"mcp.arg.user-lists-name":   {RU: "подстрока представления", EN: "presentation substring"},
	})
}
