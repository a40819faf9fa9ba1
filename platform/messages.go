package platform

import "github.com/elemctl/elemctl/internal/i18n"

func init() {
	i18n.Register(map[string]i18n.Message{
		"client.api-error": {
			RU: "Console API ответил {status} на {method} {url}",
			EN: "Console API responded {status} to {method} {url}",
		},
		"client.server-starting": {
			RU: "сервер 1C:Element ещё запускается: консоль не найдена ({method} {url}); повторите, когда {console} ответит 302",
			EN: "the 1C:Element server is still starting: the console is not found ({method} {url}); retry when {console} answers 302",
		},
		"client.unknown-method": {
			RU: "сервер не знает метода {method} {url}: он старше этого метода Console API {api}",
			EN: "the server does not know the method {method} {url}: it is older than this method of Console API {api}",
		},
		"client.network-error": {
			RU: "сетевая ошибка {method} {url}: {error}",
			EN: "network error {method} {url}: {error}",
		},
		"client.proxy-hint": {
			RU: "запрос шёл через прокси {proxy}; чтобы ходить напрямую, задайте ELEMCTL_NO_PROXY=1",
			EN: "the request went through the proxy {proxy}; to go direct, set ELEMCTL_NO_PROXY=1",
		},
		"client.invalid-url": {
			RU: "неверный адрес запроса {url}: {error}",
			EN: "invalid request address {url}: {error}",
		},
		"auth.token-http": {
			RU: "не удалось получить токен: HTTP {status}",
			EN: "failed to obtain a token: HTTP {status}",
		},
		"auth.no-token": {
			RU: "в ответе сервера нет токена (ожидались поля id_token, token, value или access_token)",
			EN: "no token in the server response (the id_token, token, value or access_token fields were expected)",
		},
		"config.env-file-missing": {
			RU: "файл .env не найден: {path} (искали {absolute}; относительный путь считается от текущего каталога {cwd}, а не от каталога проекта)",
			EN: ".env file not found: {path} (looked for {absolute}; a relative path is resolved from the current directory {cwd}, not from the project directory)",
		},
		"config.env-file-unreadable": {
			RU: "не удалось прочитать файл .env {path}: {error}",
			EN: "failed to read the .env file {path}: {error}",
		},
		"config.missing": {
			RU: "не заданы параметры подключения: {names} (переменные окружения, файл .env или флаги командной строки)",
			EN: "connection parameters are not set: {names} (environment variables, the .env file or CLI flags)",
		},
		"config.invalid-bool": {
			RU: "недопустимое логическое значение {name}='{value}'; используйте true или false",
			EN: "invalid boolean value {name}='{value}'; use true or false",
		},
		"config.invalid-base-url": {
			RU: "неверный базовый адрес {url}: он должен начинаться с http:// или https://",
			EN: "invalid base URL {url}: it must start with http:// or https://",
		},
		"config.invalid-timeout": {
			RU: "неверный тайм-аут {value}: нужно положительное число секунд",
			EN: "invalid timeout {value}: a positive number of seconds is expected",
		},
		"config.ca-file": {
			RU: "не удалось загрузить файл сертификатов {path}: {error}",
			EN: "failed to load CA file {path}: {error}",
		},
		"transport.tls-off": {
			RU: "внимание: проверка сертификата и имени сервера отключена (ELEMENT_TLS_VERIFY=false) – соединение не защищено от подмены сервера",
			EN: "warning: certificate and host name verification is off (ELEMENT_TLS_VERIFY=false) – the connection is not protected from a spoofed server",
		},
		"client.app-not-found": {
			RU: "приложение '{ref}' не найдено (ни по id, ни по точному имени)",
			EN: "application '{ref}' not found (neither by id nor by exact name)",
		},
		"client.app-ambiguous": {
			RU: "имя приложения '{ref}' неоднозначно: ему соответствуют {ids} – передайте id (UUID)",
			EN: "the application name '{ref}' is ambiguous: it matches {ids} – pass the id (UUID)",
		},
		"client.delete-precondition-hint": {
			RU: "в среде разработки приложения есть неопубликованные изменения: опубликуйте или отмените их либо удалите приложение через панель управления",
			EN: "the development environment of the application has unpublished changes: publish or discard them, or delete the application through the control panel",
		},
	})
}

func init() {
	i18n.Register(map[string]i18n.Message{
		"config.ca-file-no-certs": {
			RU: "в файле нет ни одного сертификата PEM",
			EN: "the file holds no PEM certificate",
		},
	})
}
