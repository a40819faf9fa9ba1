package deploy

import "github.com/elemctl/elemctl/internal/i18n"

func init() {
	i18n.Register(map[string]i18n.Message{
		// Waits.
		"deploy.server-starting": {
			RU: "сервер 1С:Элемент запускается (консоль отвечает «Application \"console\" not found») – жду его до {seconds} с и переспрашиваю",
			EN: "the 1C:Element server is starting (the console answers \"Application \\\"console\\\" not found\") – waiting for it up to {seconds} s, asking again and again",
		},
		"deploy.server-up": {
			RU: "консоль сервера поднялась – продолжаю",
			EN: "the server console is up – going on",
		},
		"deploy.server-start-timeout": {
			RU: "сервер 1С:Элемент не поднялся за {seconds} с: консоль всё ещё отвечает «Application \"console\" not found». Проверьте {console} и повторите (--server-start-timeout задаёт ожидание, 0 – не ждать)",
			EN: "the 1C:Element server did not come up within {seconds} s: the console still answers \"Application \\\"console\\\" not found\". Check {console} and repeat (--server-start-timeout sets the wait, 0 = do not wait)",
		},
		"deploy.status-server-starting": {
			RU: "сервер запускается… {elapsed} с",
			EN: "the server is starting… {elapsed} s",
		},
		"deploy.wait-read-broke": {
			RU: "чтение карточки оборвалось, жду дальше: {error}",
			EN: "reading the card broke off, waiting on: {error}",
		},
		"deploy.wait-status": {
			RU: "приложение {app}: статус {status} ({elapsed} с)",
			EN: "application {app}: status {status} ({elapsed} s)",
		},
		"deploy.status-wait": {
			RU: "жду {goal}: статус {status}, {elapsed} с",
			EN: "waiting for {goal}: status {status}, {elapsed} s",
		},
		"deploy.status-delete": {
			RU: "жду удаления {app}: статус {status}, {elapsed} с",
			EN: "waiting for {app} to go: status {status}, {elapsed} s",
		},
		"deploy.status-busy": {
			RU: "приложение {app} занято, {elapsed} с",
			EN: "application {app} is busy, {elapsed} s",
		},
		"client.wait-status-unknown": {
			RU: "приложение {app} больше {seconds} с подряд в статусе UNKNOWN: консоль не может назвать состояние сервера (например, файлы базы пропали) – ожидание прекращено",
			EN: "application {app} has been in status UNKNOWN for more than {seconds} s in a row: the console cannot name the server's state (the database files may be gone) – the wait is given up",
		},
		"client.wait-timeout": {
			RU: "приложение {app} не пришло к {goal} за {seconds} с (последний статус: {status})",
			EN: "application {app} did not reach {goal} within {seconds} s (last status: {status})",
		},
		"client.app-error-status": {
			RU: "приложение {app} в статусе Error: {detail}",
			EN: "application {app} is in status Error: {detail}",
		},
		"deploy.no-error-text": {
			RU: "текста ошибки нет",
			EN: "no error text",
		},
		"deploy.stopping": {
			RU: "приложение {app} в статусе {status} – останавливаю, чтобы запустить заново",
			EN: "application {app} is in status {status} – stopping it to start it again",
		},
		"deploy.starting": {
			RU: "запускаю приложение {app}",
			EN: "starting application {app}",
		},
		"deploy.busy": {
			RU: "приложение {app} занято предыдущей операцией – жду (до {seconds} с)",
			EN: "application {app} is busy with a previous operation – waiting (up to {seconds} s)",
		},
		"deploy.busy-over": {
			RU: "приложение освободилось, применение началось",
			EN: "the application is free again, the apply has started",
		},
		"deploy.interrupted": {
			RU: "прервано; платформа продолжает начатое с приложением {app}. Проверить позже: {command}",
			EN: "interrupted; the platform goes on with what it started on application {app}. To check later: {command}",
		},

		// Verification.
		"deploy.task-failed": {
			RU: "задача {task} завершилась со статусом {status}: {text}",
			EN: "task {task} finished with status {status}: {text}",
		},
		"deploy.tasks-unreadable": {
			RU: "не удалось прочитать задачи приложений, упавшие задачи не проверены: {error}",
			EN: "the application tasks could not be read, failed tasks were not checked: {error}",
		},
		"deploy.rolled-back": {
			RU: "применённая сборка {applied} не совпадает с загруженной {expected} – похоже, платформа откатила применение",
			EN: "the applied build {applied} does not match the uploaded one {expected} – the platform seems to have rolled the apply back",
		},
		"deploy.version-mismatch": {
			RU: "применённая версия {applied} не совпадает с ожидаемой {expected} – похоже, платформа откатила применение",
			EN: "applied version {applied} does not match the expected {expected} – the platform seems to have rolled the apply back",
		},
		"deploy.extension-lookup-failed": {
			RU: "не удалось выяснить, сборка ли {id} расширения: {error}",
			EN: "could not find out whether {id} is a build of an extension: {error}",
		},
		"deploy.extension-unverifiable": {
			RU: "применение расширения {extension} нельзя проверить: {error}",
			EN: "the apply of extension {extension} cannot be verified: {error}",
		},
		"deploy.extension-missing": {
			RU: "сборка {id} принадлежит расширению {extension}, но у приложения нет такого расширения – первое применение не удалось",
			EN: "build {id} belongs to extension {extension}, but the application has no such extension – the first apply failed",
		},
		"deploy.extension-other-build": {
			RU: "расширение {extension} работает на сборке {running}, а не на загруженной {expected} – похоже, платформа откатила применение",
			EN: "extension {extension} runs the build {running}, not the uploaded one {expected} – the platform seems to have rolled the apply back",
		},
		"deploy.extension-disabled": {
			RU: "расширение {extension} применено, но выключено",
			EN: "extension {extension} is applied but disabled",
		},
		"deploy.server-log-hint": {
			RU: "платформа не назвала причину: она в журнале сервера – ищите в server.log последнюю строку «Caused by» и строку «SrcPath:» рядом с ней",
			EN: "the platform named no cause: it is in the server log – look for the last \"Caused by\" line in server.log and the \"SrcPath:\" line near it",
		},

		// Deploy.
		"deploy.source-flag": {
			RU: "задано флагом",
			EN: "given by a flag",
		},
		"deploy.source-env": {
			RU: "из окружения/.env",
			EN: "from the environment/.env",
		},
		"deploy.target": {
			RU: "цель: приложение {app} ({app_source}), проект {project} ({project_source})",
			EN: "target: application {app} ({app_source}), project {project} ({project_source})",
		},
		"deploy.schema-skipped": {
			RU: "проверка схемы данных пропущена: {reason}",
			EN: "the data schema check is skipped: {reason}",
		},
		"deploy.schema-allow-ignored": {
			RU: "--allow-data-loss принят, но проверки схемы пока нет – разрешать нечего",
			EN: "--allow-data-loss is taken, but there is no schema check yet – nothing to allow",
		},
		"deploy.schema-not-checked": {
			RU: "схема данных в этот раз не проверялась ({reason}): удаление реквизитов и таблиц платформа применяет без вопросов",
			EN: "the schema was not checked this time ({reason}): the platform applies removed attributes and tables without asking",
		},
		"deploy.version-not-kept": {
			RU: "внимание: сервер не сохранит версию {version} – при загрузке в проект он нумерует сборки сам ({base}-N)",
			EN: "warning: the server will not keep the version {version} – an upload into a project is numbered by the server ({base}-N)",
		},
		"deploy.list-unreadable": {
			RU: "список сборок проекта {project} не прочитан, номер считаю без него: {error}",
			EN: "the build list of project {project} was not read, counting the number without it: {error}",
		},
		"deploy.counted-from-registry": {
			RU: "номер сборки считаю от {version} из локального реестра загрузок: в списке платформы её уже нет (чистка сборок)",
			EN: "the build number is counted on from {version} of the local registry of uploads: the platform's list no longer has it (build housekeeping)",
		},
		"deploy.temp-dir": {
			RU: "не удалось создать временный каталог для сборки: {error}",
			EN: "could not create a temporary directory for the build: {error}",
		},
		"deploy.built": {
			RU: "собран архив {file} (версия {version})",
			EN: "built archive {file} (version {version})",
		},
		"deploy.uploaded": {
			RU: "сборка загружена (id: {id})",
			EN: "build uploaded (id: {id})",
		},
		"deploy.renumbered-warning": {
			RU: "внимание: сервер пронумеровал сборку по-своему: {server} вместо {version}",
			EN: "warning: the server numbered the build its own way: {server} instead of {version}",
		},
		"deploy.renumbered-note": {
			RU: "сервер дал сборке номер {server} (собрана как {version})",
			EN: "the server numbered the build {server} (built as {version})",
		},
		"deploy.apply-started": {
			RU: "применение началось, жду, пока приложение устоится...",
			EN: "apply started, waiting for the application to stabilize...",
		},
		"deploy.apply-started-id": {
			RU: "применение сборки {id} началось, жду приложение",
			EN: "applying assembly {id} started, waiting for the application",
		},
		"deploy.verifying": {
			RU: "приложение в статусе Running, проверяю, применилась ли сборка на самом деле...",
			EN: "application is Running, verifying the actual apply...",
		},
		"deploy.extension-evidence": {
			RU: "расширение приложения работает на версии {version} (enabled: {enabled})",
			EN: "the application's extension runs version {version} (enabled: {enabled})",
		},
		"deploy.extension-evidence-none": {
			RU: "у приложения нет строки этого расширения",
			EN: "the application has no row of this extension",
		},
		"deploy.passed": {
			RU: "проверка пройдена: сборка применена",
			EN: "verification passed: the build is applied",
		},
		"deploy.problem": {
			RU: "проблема: {text}",
			EN: "problem: {text}",
		},
		"deploy.failed": {
			RU: "проверка НЕ ПРОЙДЕНА",
			EN: "verification FAILED",
		},

		// Probe.
		"probe.no-build-id": {
			RU: "платформа не вернула id сборки в ответе на загрузку – компилировать нечего",
			EN: "the platform returned no build id in the upload response – nothing to compile",
		},
		"probe.no-app-id": {
			RU: "платформа не вернула id временного приложения – компиляцию не проверить",
			EN: "the platform returned no id of the throwaway application – the compilation cannot be checked",
		},
		"probe.creating": {
			RU: "создаю временное приложение {name} – это и есть компиляция...",
			EN: "creating the throwaway application {name} – that is the compilation...",
		},
		"probe.passed": {
			RU: "компиляция пройдена",
			EN: "compilation passed",
		},
		"probe.failed": {
			RU: "компиляция НЕ ПРОЙДЕНА, сообщений: {count}",
			EN: "compilation FAILED, messages: {count}",
		},
		"probe.error-line": {
			RU: "  {file}:{line}:{column}: {message}",
			EN: "  {file}:{line}:{column}: {message}",
		},
		"probe.compatibility-refused": {
			RU: "сервер не знает режим совместимости {mode} (РежимСовместимости в {file}: {declared}) – остальные ошибки следуют из этого",
			EN: "the server does not know the compatibility mode {mode} (РежимСовместимости in {file}: {declared}) – the other errors follow from it",
		},
		"probe.kept": {
			RU: "уборка выключена (--keep): приложение, сборка и проект остаются",
			EN: "cleanup is off (--keep): the application, the build and the project stay",
		},
		"probe.cleanup-command": {
			RU: "убрать всё одной командой: {command}",
			EN: "to remove it all in one command: {command}",
		},
		"probe.cleanup-steps": {
			RU: "или по шагам, в этом порядке:\n  {steps}",
			EN: "or step by step, in this order:\n  {steps}",
		},
		"probe.cleanup-problem": {
			RU: "уборка: {text}",
			EN: "cleanup: {text}",
		},
		"probe.cleaned": {
			RU: "уборка закончена: удалено всё, что создала проба",
			EN: "cleanup done: everything the probe made is removed",
		},
		"probe.cleanup-busy": {
			RU: "приложение {app} ещё занято (создание не закончилось) – жду, чтобы удалить (до {seconds} с)",
			EN: "application {app} is still busy (its creation has not finished) – waiting to delete it (up to {seconds} s)",
		},
		"probe.cleanup-app-failed": {
			RU: "приложение {app} не удалено: {error}",
			EN: "application {app} was not deleted: {error}",
		},
		"probe.cleanup-app-timeout": {
			RU: "приложение {app} не исчезло за {seconds} с",
			EN: "application {app} did not go within {seconds} s",
		},
		"probe.cleanup-build-left": {
			RU: "сборка {id} оставлена: приложение {app}, созданное из неё, ещё живо",
			EN: "build {id} is left: application {app} created from it is still alive",
		},
		"probe.cleanup-build-no-project": {
			RU: "сборка {id} оставлена: неизвестно, в какой проект она попала",
			EN: "build {id} is left: the project it landed in is unknown",
		},
		"probe.cleanup-build-failed": {
			RU: "сборка {id} не удалена: {error}",
			EN: "build {id} was not deleted: {error}",
		},
		"probe.cleanup-project-failed": {
			RU: "проект {project} не удалён: {error}",
			EN: "project {project} was not deleted: {error}",
		},
		"probe.interrupted-clean": {
			RU: "проба прервана; всё, что она успела создать, убрано",
			EN: "the probe was interrupted; everything it had made is removed",
		},
		"probe.interrupted-left": {
			RU: "проба прервана; на платформе осталось созданное ею – убрать: {command}",
			EN: "the probe was interrupted; what it made is left on the platform – to remove it: {command}",
		},
		"probe.cleanup-refused-config-app": {
			RU: "приложение {app} – это ELEMENT_APP_ID конфигурации, его уборка пробы не трогает",
			EN: "application {app} is the configuration's ELEMENT_APP_ID; a probe cleanup never touches it",
		},
		"probe.cleanup-refused-not-probe": {
			RU: "приложение {app} ({name}) оставлено не пробой: имя не начинается с elemctl-probe-, версия без -probe-, и реестр загрузок его не знает – удалите его сами (apps delete), если оно не нужно",
			EN: "application {app} ({name}) was not left by a probe: its name does not start with elemctl-probe-, its version has no -probe-, and the registry of uploads does not know it – delete it yourself (apps delete) if it is not needed",
		},
		"probe.cleanup-app-already": {
			RU: "приложение {app} уже удалено",
			EN: "application {app} is already deleted",
		},
		"probe.cleanup-app": {
			RU: "удаляю приложение {app} ({name})",
			EN: "deleting application {app} ({name})",
		},
		"probe.cleanup-no-project": {
			RU: "у приложения {app} не указан проект – сборки и проект не тронуты",
			EN: "application {app} names no project – builds and project are left untouched",
		},
		"probe.cleanup-list-failed": {
			RU: "список сборок проекта {project} не прочитан: {error}",
			EN: "the build list of project {project} was not read: {error}",
		},
		"probe.cleanup-build": {
			RU: "сборка {version} удалена",
			EN: "build {version} deleted",
		},
		"probe.cleanup-project": {
			RU: "проект {project} удалён",
			EN: "project {project} deleted",
		},
		"probe.cleanup-project-kept": {
			RU: "проект {project} оставлен: {reason}",
			EN: "project {project} is kept: {reason}",
		},
		"probe.project-kept-config": {
			RU: "это ELEMENT_PROJECT_ID конфигурации",
			EN: "it is the configuration's ELEMENT_PROJECT_ID",
		},
		"probe.project-kept-builds": {
			RU: "в нём ещё есть сборки ({count}): {builds}",
			EN: "it still has builds ({count}): {builds}",
		},
		"probe.project-kept-app": {
			RU: "на нём работает приложение {app}",
			EN: "application {app} runs it",
		},

		// apps create / ensure.
		"cli.source-latest-needs-project": {
			RU: "--latest-build требует --project-id (или ELEMENT_PROJECT_ID)",
			EN: "--latest-build requires --project-id (or ELEMENT_PROJECT_ID)",
		},
		"cli.source-no-builds": {
			RU: "у проекта {project} нет сборок – загрузите сборку (builds upload) или передайте --version-id",
			EN: "project {project} has no builds – upload one (builds upload) or pass --version-id",
		},
		"cli.source-whole-project": {
			RU: "внимание: источник – весь проект; на некоторых установках так получается пустой каркас приложения (--latest-build надёжнее)",
			EN: "warning: the source is the whole project; on some installations that yields an empty skeleton (--latest-build is safer)",
		},
		"cli.source-missing": {
			RU: "не указан источник: приложение всегда создаётся из сборки (--version-id, или --project-id с --latest-build). Проекта ещё нет? Его создаёт загрузка без --project-id: elemctl builds upload <файл>.xasm --space-id <id>",
			EN: "no source: an application is always created from a build (--version-id, or --project-id with --latest-build). No project yet? An upload without --project-id creates one: elemctl builds upload <file>.xasm --space-id <id>",
		},
		"cli.source-other-project-env": {
			RU: "сборки {build} нет в проекте {project} из ELEMENT_PROJECT_ID: она принадлежит проекту «{name}» ({owner}), сверяю с ним",
			EN: "build {build} is not in project {project} from ELEMENT_PROJECT_ID: it belongs to project '{name}' ({owner}), and it is checked against that one",
		},
		"cli.source-other-project-flag": {
			RU: "сборки {build} нет в проекте {project}: она принадлежит проекту «{name}» ({owner}). Передайте --project-id {owner} или не указывайте флаг",
			EN: "build {build} is not in project {project}: it belongs to project '{name}' ({owner}). Pass --project-id {owner}, or leave the flag out",
		},
		"cli.source-not-listed": {
			RU: "сборки {build} нет в списке сборок проекта {project}: платформа удаляет сборки, которыми никто не пользуется, и создание из удалённой сборки падает с 400 \"Can't create application\"",
			EN: "assembly {build} is not in the build list of project {project}: the platform deletes the builds nobody uses, and creating from a deleted build fails with 400 \"Can't create application\"",
		},
		"cli.source-offer-running": {
			RU: "Приложение {app} работает на сборке {id} ({version}): передайте её как --version-id, или --latest-build возьмёт новейшую сборку проекта",
			EN: "Application {app} runs build {id} ({version}): pass it as --version-id, or --latest-build takes the project's newest build",
		},
		"cli.source-offer-latest": {
			RU: "--latest-build возьмёт новейшую сборку проекта",
			EN: "--latest-build takes the project's newest build",
		},
		"cli.source-nowhere": {
			RU: "Ни один другой проект стенда эту сборку тоже не содержит",
			EN: "No other project of the stand lists the build either",
		},
		"cli.source-env-project": {
			RU: "Проект взят из ELEMENT_PROJECT_ID – возможно, сборка из другого проекта; укажите --project-id",
			EN: "The project comes from ELEMENT_PROJECT_ID – the build may be of another project; pass --project-id",
		},
		"cli.wait-broken": {
			RU: "приложение {app} создано, но ожидание оборвалось: {error}",
			EN: "application {app} was created, but the wait broke off: {error}",
		},
		"cli.wait-broken-next": {
			RU: "id приложения есть в ответе; проверить сборку позже: {command}",
			EN: "the application id is in the answer; to check the build later: {command}",
		},
		"client.sign-in-hint": {
			RU: "как войти: {url} – учётной записью ПАНЕЛИ УПРАВЛЕНИЯ (той, что в консоли)",
			EN: "how to sign in: {url} – with a CONTROL PANEL account (the one of the console)",
		},
		"client.sign-in-hint-later": {
			RU: "как войти: адрес появится, когда приложение запустится – apps get (или создавайте с --wait); входить учётной записью ПАНЕЛИ УПРАВЛЕНИЯ",
			EN: "how to sign in: the address appears once the application starts – apps get (or create it with --wait); sign in with a CONTROL PANEL account",
		},
		"client.sign-in-note": {
			RU: "у нового приложения свой пустой список пользователей, вход по паролю выключен и служб учётных записей нет, поэтому учётные записи других приложений здесь не работают",
			EN: "a new application has its own empty user list, password sign-in is off and there is no account service, so accounts of other applications do not work here",
		},
		"cli.ensure.runs": {
			RU: "приложение уже есть и уже работает на сборке {build}",
			EN: "the application already exists and already runs assembly {build}",
		},
		"cli.ensure.runs-extension": {
			RU: "приложение уже есть, и его расширение {extension} уже работает на сборке {build}",
			EN: "the application already exists and its extension {extension} already runs assembly {build}",
		},
		"cli.ensure.extension-disabled": {
			RU: "внимание: расширение {extension} применено, но выключено",
			EN: "warning: extension {extension} is applied but disabled",
		},
		"cli.ensure.differs": {
			RU: "приложение уже есть и работает на сборке {running}, а не {build}: сборка НЕ применена. Применить: elemctl apps apply {app} {build}, или повторите ensure с --apply",
			EN: "the application already exists and runs assembly {running} rather than {build}: the assembly was NOT applied. Apply it with elemctl apps apply {app} {build}, or repeat ensure with --apply",
		},
		"cli.ensure.extension-differs": {
			RU: "приложение уже есть, но его расширение {extension} работает на сборке {running}, а не {build}: сборка НЕ применена. Применить: elemctl apps apply {app} {build}, или повторите ensure с --apply",
			EN: "the application already exists, but its extension {extension} runs assembly {running} rather than {build}: the assembly was NOT applied. Apply it with elemctl apps apply {app} {build}, or repeat ensure with --apply",
		},
		"cli.ensure.extension-missing": {
			RU: "приложение уже есть, но расширения {extension} у него нет: сборка {build} НЕ применена. Применить: elemctl apps apply {app} {build}, или повторите ensure с --apply",
			EN: "the application already exists, but it has no extension {extension}: assembly {build} was NOT applied. Apply it with elemctl apps apply {app} {build}, or repeat ensure with --apply",
		},
		"cli.ensure.extension-unverifiable": {
			RU: "сборка {build} – сборка расширения, но проверить расширения приложения нельзя: {error}",
			EN: "assembly {build} is an extension build, but the application's extensions cannot be checked: {error}",
		},
		"cli.ensure.extension-lookup-failed": {
			RU: "не удалось выяснить, сборка ли {build} расширения: {error}",
			EN: "could not find out whether {build} is an extension build: {error}",
		},
	})
}
