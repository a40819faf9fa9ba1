package dap

import "github.com/elemctl/elemctl/internal/i18n"

func init() {
	i18n.Register(map[string]i18n.Message{
		"dap.adapter-advice": {
			RU: "Установите плагин, который объявляет отладочный адаптер, или выполните `elemctl debug-adapter extract ДИСТРИБУТИВ`, или укажите каталог адаптера: `elemctl dap --adapter КАТАЛОГ` (либо переменная ELEMCTL_DEBUG_ADAPTER).",
			EN: "Install a plugin that declares the debug adapter, run `elemctl debug-adapter extract DISTRO`, or pass the adapter directory: `elemctl dap --adapter DIR` (or set ELEMCTL_DEBUG_ADAPTER).",
		},
		"dap.adapter-not-found": {
			RU: "Отладочный адаптер 1С:Элемент не найден.",
			EN: "The 1C:Element debug adapter was not found.",
		},
		"dap.adapter-no-jar": {
			RU: "Каталог {dir} ({source}) не похож на отладочный адаптер: в нём нет repo/com.e1c.g5rt.debugger.adapter*.jar.",
			EN: "The directory {dir} ({source}) is not a debug adapter: it has no repo/com.e1c.g5rt.debugger.adapter*.jar.",
		},
		"dap.adapter-locate-failed": {
			RU: "Не удалось узнать у плагинов каталог отладочного адаптера: {error}.",
			EN: "Could not get the debug adapter directory from the plugins: {error}.",
		},
		"dap.java-not-found": {
			RU: "Java не найдена: {java}. Установите JDK 17 или новее, задайте JAVA_HOME или укажите `elemctl dap --java ПУТЬ`.",
			EN: "Java not found: {java}. Install JDK 17 or newer, set JAVA_HOME, or pass `elemctl dap --java PATH`.",
		},
		"dap.java-missing": {
			RU: "Java не найдена ни в JAVA_HOME, ни в PATH. Установите JDK 17 или новее, задайте JAVA_HOME или укажите `elemctl dap --java ПУТЬ`.",
			EN: "Java was found neither in JAVA_HOME nor on PATH. Install JDK 17 or newer, set JAVA_HOME, or pass `elemctl dap --java PATH`.",
		},
		"dap.adapter-start-failed": {
			RU: "Не удалось запустить отладочный адаптер ({java}): {error}",
			EN: "Could not start the debug adapter ({java}): {error}",
		},
		"dap.not-initialized": {
			RU: "Отладочный адаптер не запущен: сеанс отладки начинается с запроса initialize.",
			EN: "The debug adapter is not running: a debug session starts with an initialize request.",
		},
		"dap.no-session": {
			RU: "Здесь elemctl не может получить параметры сеанса отладки: укажите debugToken и uri в конфигурации attach.",
			EN: "elemctl cannot look up the debug session here: put debugToken and uri into the attach configuration.",
		},
		"dap.no-debug-info": {
			RU: "Платформа не выдала параметры отладки приложения {app} (нет debug-token или debug-address): включена ли отладка на сервере?",
			EN: "The platform gave no debug session for the application {app} (no debug-token or debug-address): is debugging enabled on the server?",
		},
		"dap.debuggee-url": {
			RU: "Откройте отлаживаемое приложение: {url}",
			EN: "Open the application to debug: {url}",
		},
		"dap.no-workspace": {
			RU: "Рядом с {dir} не найден Проект.yaml или Project.yaml в каталоге <Поставщик>/<Имя>/; корнем исходников считается {dir}, точки останова могут не сработать. Укажите \"workspace\" в конфигурации attach.",
			EN: "No Проект.yaml or Project.yaml inside a <Vendor>/<Name>/ directory was found near {dir}; {dir} is used as the sources root and breakpoints may not bind. Set \"workspace\" in the attach configuration.",
		},
		"dap.adapter-exited": {
			RU: "Отладочный адаптер завершился с кодом {code}.",
			EN: "The debug adapter exited with code {code}.",
		},
		"dap.adapter-killed": {
			RU: "Отладочный адаптер не завершился за {grace} после отключения клиента и был остановлен принудительно.",
			EN: "The debug adapter did not exit within {grace} after the client left and was killed.",
		},
		"dap.dropped-frame": {
			RU: "Отброшено сообщение от {side}, которое не является JSON-сообщением DAP ({size} байт).",
			EN: "Dropped a message from {side} that is not a DAP JSON message ({size} bytes).",
		},
		"dap.dropped-header": {
			RU: "Отброшен блок заголовков без Content-Length от {side}.",
			EN: "Dropped a header block without Content-Length from {side}.",
		},
		"dap.side-client":   {RU: "клиента отладки", EN: "the debug client"},
		"dap.side-adapter":  {RU: "отладочного адаптера", EN: "the debug adapter"},
		"dap.source-flag":   {RU: "--adapter", EN: "--adapter"},
		"dap.source-env":    {RU: "переменная ELEMCTL_DEBUG_ADAPTER", EN: "ELEMCTL_DEBUG_ADAPTER"},
		"dap.source-plugin": {RU: "каталог из плагина", EN: "declared by a plugin"},
	})
}
