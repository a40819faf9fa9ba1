package manifest

import "github.com/elemctl/elemctl/internal/i18n"

func init() {
	i18n.Register(map[string]i18n.Message{
		"plugins.ctx-plugin":  {RU: "плагин '{source}'", EN: "plugin '{source}'"},
		"plugins.ctx-command": {RU: "плагин '{source}', команда '{command}'", EN: "plugin '{source}', command '{command}'"},
		"plugins.manifest-unreadable": {
			RU: "не удалось прочитать {file}: {error}",
			EN: "cannot read {file}: {error}",
		},
		"plugins.manifest-invalid": {
			RU: "{file} – не JSON: {error}",
			EN: "{file} is not JSON: {error}",
		},
		"plugins.manifest-not-object": {
			RU: "в {file} должен быть JSON-объект",
			EN: "{file} must hold a JSON object",
		},
		"plugins.field-unknown": {
			RU: "неизвестное поле манифеста \"{field}\"",
			EN: "unknown manifest field \"{field}\"",
		},
		"plugins.field-type": {
			RU: "поле \"{field}\" должно иметь тип {want}",
			EN: "the field \"{field}\" must be of type {want}",
		},
		"plugins.name-invalid": {
			RU: "имя плагина \"{name}\" недопустимо: нужны латинские буквы, цифры, '.', '_' и '-'",
			EN: "the plugin name \"{name}\" is not valid: use latin letters, digits, '.', '_' and '-'",
		},
		"plugins.feature-missing": {
			RU: "плагину нужны возможности, которых нет в elemctl {version}: {features}. Плагин написан для более нового elemctl – обновите elemctl",
			EN: "the plugin needs features elemctl {version} lacks: {features}. It was written for a newer elemctl – update elemctl",
		},
		"plugins.timeout-invalid": {
			RU: "\"{field}\" должно быть положительным числом секунд",
			EN: "\"{field}\" must be a positive number of seconds",
		},
		"plugins.interpreter-invalid": {
			RU: "\"interpreter\" должно быть именем программы или списком имён",
			EN: "\"interpreter\" must be a program name or a list of names",
		},
		"plugins.adapter-invalid": {
			RU: "\"debug_adapter\" должно быть каталогом (строкой или {\"path\": ...}), {\"command\": [...]} или {\"index\": ...}",
			EN: "\"debug_adapter\" must be a directory (a string or {\"path\": ...}), {\"command\": [...]} or {\"index\": ...}",
		},
		"plugins.not-commands": {
			RU: "\"commands\" должно быть списком объектов-команд (элемент {index} – не команда)",
			EN: "\"commands\" must be a list of command objects (item {index} is not a command)",
		},
		"plugins.command-name": {
			RU: "у команды {index} нет имени: нужна непустая строка \"name\"",
			EN: "command {index} has no name: \"name\" must be a non-empty string",
		},
		"plugins.command-name-invalid": {
			RU: "имя команды \"{name}\" недопустимо: нужны латинские буквы, цифры, '_' и '-', первой – буква или цифра",
			EN: "the command name \"{name}\" is not valid: use latin letters, digits, '_' and '-', starting with a letter or digit",
		},
		"plugins.command-duplicate": {
			RU: "команда объявлена дважды",
			EN: "the command is declared twice",
		},
		"plugins.mcp-name-invalid": {
			RU: "mcp_name \"{name}\" недопустимо: до 64 латинских букв, цифр, '_' и '-'",
			EN: "the mcp_name \"{name}\" is not valid: up to 64 latin letters, digits, '_' and '-'",
		},
		"plugins.no-executable": {
			RU: "у плагина есть команды, но нет \"executable\" – программы, которая их выполняет",
			EN: "the plugin has commands but no \"executable\" to run them",
		},
		"plugins.executable-missing": {
			RU: "программа плагина {path} не найдена",
			EN: "the plugin's program {path} does not exist",
		},
		"plugins.not-argument": {
			RU: "\"arguments\" должно быть списком объектов-аргументов (элемент {index} – не аргумент)",
			EN: "\"arguments\" must be a list of argument objects (item {index} is not an argument)",
		},
		"plugins.argument-name": {
			RU: "у аргумента {index} нет имени: нужна непустая строка \"name\"",
			EN: "argument {index} has no name: \"name\" must be a non-empty string",
		},
		"plugins.argument-name-invalid": {
			RU: "имя аргумента {argument} недопустимо: нужны латинские буквы, цифры, '_' и '-'",
			EN: "the argument name {argument} is not valid: use latin letters, digits, '_' and '-'",
		},
		"plugins.argument-field-unknown": {
			RU: "аргумент {argument}: неизвестное поле \"{field}\"",
			EN: "argument {argument}: unknown field \"{field}\"",
		},
		"plugins.argument-field-type": {
			RU: "аргумент {argument}: поле \"{field}\" должно иметь тип {want}",
			EN: "argument {argument}: the field \"{field}\" must be of type {want}",
		},
		"plugins.argument-type": {
			RU: "аргумент {argument}: тип {type} не поддерживается (поддерживаются {types})",
			EN: "argument {argument}: the type {type} is not supported (supported: {types})",
		},
		"plugins.flag-positional": {
			RU: "аргумент {argument} – флаг (bool), а флаг может быть только ключом: --{name}",
			EN: "argument {argument} is a flag (bool), and a flag can only be an option: --{name}",
		},
		"plugins.multiple-flag": {
			RU: "аргумент {argument} объявлен повторяемым (multiple), а это флаг: флаг не повторяют",
			EN: "argument {argument} is declared repeatable (multiple), but it is a flag: a flag is not repeated",
		},
		"plugins.multiple-default": {
			RU: "аргумент {argument} повторяемый (multiple), поэтому его значение по умолчанию – список или null, а не {value}",
			EN: "argument {argument} is multiple, so its default must be a list or null, not {value}",
		},
		"plugins.default-type": {
			RU: "аргумент {argument}: значение по умолчанию {value} не подходит к типу {type}",
			EN: "argument {argument}: the default {value} does not fit the type {type}",
		},
		"plugins.choices-type": {
			RU: "аргумент {argument}: допустимое значение {value} не подходит к типу {type}",
			EN: "argument {argument}: the choice {value} does not fit the type {type}",
		},
		"plugins.argument-duplicate": {
			RU: "аргумент {argument}: аргумент {other} уже хранит значение под именем {dest}",
			EN: "argument {argument}: the argument {other} already keeps its value under the name {dest}",
		},
		"plugins.alias-needs-positional": {
			RU: "аргумент {argument}: cli_alias бывает только у позиционного аргумента",
			EN: "argument {argument}: cli_alias is for positional arguments only",
		},
		"plugins.alias-not-an-option": {
			RU: "аргумент {argument}: cli_alias \"{alias}\" должен быть ключом, начинаться с --",
			EN: "argument {argument}: the cli_alias \"{alias}\" must be an option, starting with --",
		},
		"plugins.alias-duplicate": {
			RU: "аргумент {argument}: ключ {option} уже занят аргументом {other}",
			EN: "argument {argument}: the option {option} is already taken by the argument {other}",
		},
		"plugins.global-option-taken": {
			RU: "аргумент {argument} занимает имя общего ключа elemctl {option}. Выберите другое имя",
			EN: "argument {argument} takes the name of the elemctl global option {option}. Choose another name",
		},
		"plugins.value-name-taken": {
			RU: "аргумент {argument}: elemctl хранит значение под именем {dest}, выберите другое имя",
			EN: "argument {argument}: elemctl keeps a value under the name {dest}, choose another name",
		},
		"plugins.option-taken": {
			RU: "аргумент {argument}: ключ {option} занят самим elemctl (-h, --help)",
			EN: "argument {argument}: the option {option} is elemctl's own (-h, --help)",
		},
		"plugins.option-form": {
			RU: "аргумент {argument}: ключ пишется с двумя дефисами: --{name}",
			EN: "argument {argument}: an option is written with two dashes: --{name}",
		},
		"plugins.command-name-taken": {
			RU: "это имя команды elemctl; работает команда elemctl, а команда плагина не подключена",
			EN: "this is the name of an elemctl command; the elemctl command stays and the plugin's command is left out",
		},
		"plugins.command-name-taken-plugin": {
			RU: "команду с этим именем уже объявил плагин '{other}'",
			EN: "the plugin '{other}' already declares a command of this name",
		},
		"plugins.tool-name-taken": {
			RU: "имя инструмента MCP '{tool}' уже занято; поможет mcp_name команды",
			EN: "the MCP tool name '{tool}' is already taken; the mcp_name of the command helps here",
		},
	})
}
