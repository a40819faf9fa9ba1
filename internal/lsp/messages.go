package lsp

import "github.com/elemctl/elemctl/internal/i18n"

// Messages are this package's entries of the message catalog, for
// i18n.Register.
var Messages = []i18n.Message{
	{Key: "lsp.cli-help",
		RU: "LSP-сервер для редакторов (stdio): команды каталога через workspace/executeCommand, прогресс, отмена, ошибки пробы как диагностика",
		EN: "the LSP server for editors (stdio): catalog commands over workspace/executeCommand, progress, cancellation, probe errors as diagnostics",
	},
	{Key: "lsp.id-taken", RU: "lsp: команда {name} не подключена: id {id} уже занят", EN: "lsp: command {name} left out: the id {id} is taken"},
	{Key: "lsp.initialized-twice", RU: "initialize уже был", EN: "initialize was already received"},
	{Key: "lsp.not-initialized", RU: "сервер ещё не инициализирован: {method} до initialize", EN: "the server is not initialized: {method} before initialize"},
	{Key: "lsp.shutting-down", RU: "сервер завершает работу (shutdown получен): {method} не выполняется", EN: "the server is shutting down (shutdown received): {method} is refused"},
	{Key: "lsp.method-not-found", RU: "метод не поддерживается: {method}", EN: "method not found: {method}"},
	{Key: "lsp.bad-initialize", RU: "параметры initialize не читаются: {error}", EN: "the initialize parameters cannot be read: {error}"},
	{Key: "lsp.bad-params", RU: "параметры не читаются: {error}", EN: "the parameters cannot be read: {error}"},
	{Key: "lsp.panic", RU: "внутренняя ошибка в {what}: {error}", EN: "internal error in {what}: {error}"},
	{Key: "lsp.unknown-command", RU: "нет команды {command}; есть: {known}", EN: "no command {command}; there are: {known}"},
	{Key: "lsp.cancelled", RU: "{command}: отменено", EN: "{command}: cancelled"},

	{Key: "lsp.args-count", RU: "команда принимает один аргумент-объект, передано {count}", EN: "a command takes one object argument, {count} were given"},
	{Key: "lsp.arg-type", RU: "аргумент {name}: ожидается {type}", EN: "argument {name}: {type} expected"},
	{Key: "lsp.bad-cwd", RU: "cwd \"{value}\" не путь и не file-URI: {error}", EN: "cwd \"{value}\" is neither a path nor a file URI: {error}"},
	{Key: "lsp.extra-global",
		RU: "extraArgs: {flag} задаётся при запуске elemctl lsp или в .env, не в команде",
		EN: "extraArgs: {flag} belongs to the elemctl lsp command line or the .env, not to a command",
	},
}
